// @vitest-environment jsdom
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "./state/host-store";
import { messageText } from "./state/messages-slice";

import { resetStores } from "./test-support/reset-stores";

import { FakeSocket } from "./test-support/fake-socket";
import { chunkEvent } from "./test-support/reply-chunks";
import { waitUntil } from "./test-support/render";
import {
  chatMessage,
  conversationSnapshot,
  conversationSummary,
  sessionSnapshot,
} from "./test-support/records";
import { bindServerEvents } from "./socket/bind-server-events";
import { startSessionLifecycle } from "./session-lifecycle";

let stops: (() => void)[] = [];

function start(socket: FakeSocket, hash = "") {
  const unbind = bindServerEvents(socket);
  const lifecycle = startSessionLifecycle(socket, () => hash);
  stops.push(unbind, () => lifecycle.stop());
  return lifecycle;
}

beforeEach(() => {
  resetStores();
  window.history.replaceState(null, "", "/");
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

describe("session lifecycle", () => {
  it("asks for the person's servers after every hello", async () => {
    const socket = new FakeSocket();
    socket.respond("session:hello", () => ({ ok: true, value: sessionSnapshot() }));
    socket.respond("servers:list", () => ({
      ok: true,
      value: [{ name: "notes", remote: true, signIn: true, state: "needs-sign-in" }],
    }));
    start(socket);
    await waitUntil(() => useHostStore.getState().servers !== null, "the servers arrived");
    expect(socket.sent("servers:list")).toEqual([{}]);
    socket.fire("connect");
    await waitUntil(() => socket.sent("servers:list").length === 2, "asked again");
  });

  it("says hello on connect and applies the snapshot", async () => {
    const socket = new FakeSocket();
    socket.connected = false;
    socket.respond("session:hello", () => ({
      ok: true,
      value: sessionSnapshot({
        conversations: [conversationSummary("conv-1")],
        current: conversationSnapshot("conv-1", [chatMessage("m1", { text: "Hi" })]),
      }),
    }));
    start(socket);
    expect(useHostStore.getState().status).toBe("connecting");
    socket.connected = true;
    socket.fire("connect");
    await waitUntil(() => useHostStore.getState().status === "connected", "connected");
    expect(socket.sent("session:hello")).toEqual([{}]);
    expect(useHostStore.getState().currentConversationId).toBe("conv-1");
    expect(useHostStore.getState().model).toBe("offline");
    expect(window.location.hash).toBe("#/c/conv-1");
  });

  it("asks for the conversation named in the URL hash", async () => {
    const socket = new FakeSocket();
    socket.respond("session:hello", (payload) => ({
      ok: true,
      value: sessionSnapshot({ current: conversationSnapshot(payload.conversationId ?? "none") }),
    }));
    start(socket, "#/c/conv-9");
    await waitUntil(() => useHostStore.getState().status === "connected", "connected");
    expect(socket.sent("session:hello")).toEqual([{ conversationId: "conv-9" }]);
    expect(useHostStore.getState().currentConversationId).toBe("conv-9");
  });

  it("falls back to a new conversation when the hash names one that is gone", async () => {
    const socket = new FakeSocket();
    socket.respond("session:hello", (payload) =>
      payload.conversationId === undefined
        ? { ok: true, value: sessionSnapshot() }
        : { ok: false, error: wireError("not_found", "No such conversation.") },
    );
    start(socket, "#/c/gone");
    await waitUntil(() => useHostStore.getState().status === "connected", "connected");
    expect(socket.sent("session:hello")).toEqual([{ conversationId: "gone" }, {}]);
    expect(useHostStore.getState().currentConversationId).toBeNull();
    expect(useHostStore.getState().notices).toHaveLength(1);
  });

  it("after a reconnect, replaces the state from the new snapshot without duplicates", async () => {
    const socket = new FakeSocket();
    let snapshotText = "Par";
    socket.respond("session:hello", () => ({
      ok: true,
      value: sessionSnapshot({
        current: conversationSnapshot(
          "conv-1",
          [
            chatMessage("m1", { seq: 1, role: "user", text: "Question" }),
            chatMessage("m2", { seq: 2, text: snapshotText, status: "streaming" }),
          ],
          { running: ["chat"] },
        ),
      }),
    }));
    start(socket);
    await waitUntil(() => useHostStore.getState().status === "connected", "connected");
    socket.serverEmit(
      "message:chunk",
      chunkEvent(
        { type: "text-delta", id: "text-1", delta: "t", offset: snapshotText.length },
        "m2",
      ),
    );
    socket.connected = false;
    socket.fire("disconnect", "transport close");
    expect(useHostStore.getState().status).toBe("reconnecting");
    // While the page was away, the reply went on; the server's snapshot has it.
    snapshotText = "Part of the reply";
    socket.connected = true;
    socket.fire("connect");
    await waitUntil(() => useHostStore.getState().status === "connected", "reconnected");
    expect(socket.sent("session:hello")).toEqual([{}, { conversationId: "conv-1" }]);
    const chat = useHostStore.getState().messagesByChat.chat;
    expect(chat?.order).toEqual(["m1", "m2"]);
    const reply = chat?.byId.m2;
    expect(reply === undefined ? "" : messageText(reply)).toBe("Part of the reply");
    // The rest of the reply arrives as usual.
    socket.serverEmit("message:updated", {
      message: chatMessage("m2", { seq: 2, text: "Part of the reply, done." }),
    });
    expect(useHostStore.getState().messagesByChat.chat?.order).toEqual(["m1", "m2"]);
  });

  it("shows the sign-in advice when the handshake is refused, and retries on request", () => {
    const socket = new FakeSocket();
    socket.connected = false;
    const lifecycle = start(socket);
    const refusal = Object.assign(new Error("Open the link."), {
      data: wireError("unauthorized", "Open the sign-in link the server printed."),
    });
    socket.fire("connect_error", refusal);
    expect(useHostStore.getState().status).toBe("signed-out");
    expect(useHostStore.getState().statusMessage).toBe("Open the sign-in link the server printed.");
    lifecycle.retry();
    expect(socket.connectCalls).toBe(1);
  });

  it("says it is reconnecting when the server cannot be reached", () => {
    const socket = new FakeSocket();
    start(socket);
    socket.connected = false;
    socket.fire("disconnect", "transport close");
    socket.fire("connect_error", new Error("websocket error"));
    expect(useHostStore.getState().status).toBe("reconnecting");
  });

  it("removes its listeners when stopped", () => {
    const socket = new FakeSocket();
    socket.connected = false;
    const unbind = bindServerEvents(socket);
    const lifecycle = startSessionLifecycle(socket, () => "");
    expect(socket.listenerCount("message:chunk")).toBe(1);
    expect(socket.listenerCount("connect")).toBe(1);
    unbind();
    lifecycle.stop();
    expect(socket.listenerCount("message:chunk")).toBe(0);
    expect(socket.listenerCount("connect")).toBe(0);
  });
});
