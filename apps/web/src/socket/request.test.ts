// @vitest-environment jsdom
import { ACK_TIMEOUT_MS, wireError } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { FakeSocket } from "../test-support/fake-socket";
import { notConnectedError, request, timedOutError } from "./request";
import { tabIdFrom } from "./tab-id";

describe("request", () => {
  it("passes the acknowledgement through, with the protocol's timeout", async () => {
    const socket = new FakeSocket().respond("turn:stop", () => ({
      ok: true,
      value: { stopped: true },
    }));
    const ack = await request(socket, "turn:stop", { chatId: "chat" });
    expect(ack).toEqual({ ok: true, value: { stopped: true } });
    expect(socket.emitted[0]?.timeoutMs).toBe(ACK_TIMEOUT_MS);
  });

  it("passes a server error through", async () => {
    const error = wireError("busy", "A reply is running; wait for it or stop it.", {
      retryable: true,
    });
    const socket = new FakeSocket().respond("turn:stop", () => ({ ok: false, error }));
    expect(await request(socket, "turn:stop", { chatId: "chat" })).toEqual({ ok: false, error });
  });

  it("fails at once, without sending, when the socket is not connected", async () => {
    const socket = new FakeSocket();
    socket.connected = false;
    expect(await request(socket, "turn:stop", { chatId: "chat" })).toEqual({
      ok: false,
      error: notConnectedError,
    });
    expect(socket.emitted).toEqual([]);
  });

  it("turns a missing acknowledgement into a timeout error", async () => {
    const socket = new FakeSocket();
    expect(await request(socket, "turn:stop", { chatId: "chat" }, 5)).toEqual({
      ok: false,
      error: timedOutError,
    });
  });

  it("refuses an answer that is not an acknowledgement", async () => {
    const socket = new FakeSocket().respond("turn:stop", () => ({ stopped: true }) as never);
    const ack = await request(socket, "turn:stop", { chatId: "chat" });
    expect(ack.ok).toBe(false);
    if (!ack.ok) expect(ack.error.code).toBe("internal");
  });
});

describe("tabIdFrom", () => {
  it("keeps one id per tab", () => {
    const values = new Map<string, string>();
    const storage = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    };
    const first = tabIdFrom(storage, () => "11111111-aaaa");
    const second = tabIdFrom(storage, () => "22222222-bbbb");
    expect(first).toBe("tab-11111111-aaaa");
    expect(second).toBe(first);
  });

  it("still gives an id when storage throws", () => {
    const storage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => undefined,
    };
    expect(tabIdFrom(storage, () => "33333333-cccc")).toBe("tab-33333333-cccc");
  });
});
