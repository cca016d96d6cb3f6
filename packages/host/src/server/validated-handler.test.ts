import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { handleClientEvent, toWireError, validatedHandler } from "./validated-handler";
import {
  connectSocket,
  memoryLogger,
  runCleanups,
  signIn,
  startLayer,
  type LogLine,
} from "./test-support";
import type { HttpLayerOptions } from "./http-layer";
import type { Socket as ClientSocket } from "socket.io-client";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** A local error that chose a wire code. */
class CardNotFoundError extends Error {
  readonly code = "not_found";
  readonly rpcCode = -32600;
}

const echoSchema = z
  .object({ text: z.string().max(10_000), count: z.number().int().optional() })
  .strict();

/** A signed-in client connected to a layer whose sockets get the test events. */
async function setUp(
  options: HttpLayerOptions = {},
): Promise<{ client: ClientSocket; calls: string[]; lines: LogLine[] }> {
  const { logger, lines } = memoryLogger();
  const started = await startLayer(cleanups, { logger, ...options });
  const calls: string[] = [];
  started.layer.io.on("connection", (socket) => {
    const on = (event: string, listener: (...args: unknown[]) => void): void => {
      (socket as unknown as { on(event: string, listener: (...args: unknown[]) => void): void }).on(
        event,
        listener,
      );
    };
    on(
      "test:echo",
      validatedHandler(
        echoSchema,
        (payload) => {
          calls.push(payload.text);
          return { echoed: payload.text };
        },
        { logger, event: "test:echo", maxBytes: 2_000 },
      ),
    );
    on(
      "test:fail",
      validatedHandler(
        z.object({ kind: z.enum(["local", "unknown", "wire", "rejected"]) }),
        async (payload) => {
          if (payload.kind === "local")
            throw new CardNotFoundError(
              "That card is closed; open it again from the conversation.",
            );
          if (payload.kind === "wire")
            throw wireError("busy", "The source is busy; try again.", { retryable: true });
          if (payload.kind === "rejected")
            return Promise.reject(new Error("secret internal detail at /srv/x.ts"));
          throw new TypeError("Cannot read properties of undefined (reading 'x')");
        },
        { logger, event: "test:fail" },
      ),
    );
    handleClientEvent(
      socket,
      "turn:stop",
      (payload) => {
        calls.push(`stop ${payload.chatId}`);
        return { stopped: true };
      },
      { logger },
    );
  });
  const { cookie } = await signIn(started);
  const outcome = await connectSocket(cleanups, started.origin, { origin: started.origin, cookie });
  if (!outcome.connected) throw outcome.error;
  return { client: outcome.socket, calls, lines };
}

describe("validatedHandler through a real socket", () => {
  it("answers { ok: true, value } for a valid payload", async () => {
    const { client, calls } = await setUp();
    const ack = await client.timeout(5_000).emitWithAck("test:echo", { text: "hello" });
    expect(ack).toEqual({ ok: true, value: { echoed: "hello" } });
    expect(calls).toEqual(["hello"]);
  });

  it("answers bad_request naming the field, and the handler never runs", async () => {
    const { client, calls } = await setUp();
    const wrongType = await client.timeout(5_000).emitWithAck("test:echo", { text: 42 });
    expect(wrongType.ok).toBe(false);
    expect(wrongType.error).toMatchObject({ code: "bad_request", retryable: false });
    expect(wrongType.error.message).toContain("text");
    const extra = await client
      .timeout(5_000)
      .emitWithAck("test:echo", { text: "a", command: "rm -rf /" });
    expect(extra.error.code).toBe("bad_request");
    expect(extra.error.message).toContain("command");
    const none = await client.timeout(5_000).emitWithAck("test:echo");
    expect(none.error.code).toBe("bad_request");
    const two = await client.timeout(5_000).emitWithAck("test:echo", { text: "a" }, { text: "b" });
    expect(two.error.code).toBe("bad_request");
    expect(calls).toEqual([]);
  });

  it("refuses a payload over the handler's cap with too_large", async () => {
    const { client, calls, lines } = await setUp();
    const ack = await client.timeout(5_000).emitWithAck("test:echo", { text: "x".repeat(3_000) });
    expect(ack.error).toMatchObject({ code: "too_large" });
    expect(calls).toEqual([]);
    expect(lines.some((line) => line.msg === "Refused an oversized payload.")).toBe(true);
  });

  it("refuses a message over maxHttpBufferSize by dropping the connection", async () => {
    const { client, calls } = await setUp({ maxHttpBufferSize: 4_000 });
    const disconnected = new Promise<string>((resolve) => client.once("disconnect", resolve));
    client.emit("test:echo", { text: "y".repeat(8_000) }, () => calls.push("acked"));
    const reason = await disconnected;
    expect(reason).toMatch(/transport (close|error)/);
    expect(calls).toEqual([]);
  });

  it("maps a local error with a wire code, and a thrown WireError, to that error", async () => {
    const { client } = await setUp();
    const local = await client.timeout(5_000).emitWithAck("test:fail", { kind: "local" });
    expect(local).toEqual({
      ok: false,
      error: {
        code: "not_found",
        message: "That card is closed; open it again from the conversation.",
        retryable: false,
        rpcCode: -32600,
      },
    });
    const wire = await client.timeout(5_000).emitWithAck("test:fail", { kind: "wire" });
    expect(wire.error).toEqual({
      code: "busy",
      message: "The source is busy; try again.",
      retryable: true,
    });
  });

  it("maps unknown errors and rejections to internal without leaking their message or stack", async () => {
    const { client, lines } = await setUp();
    for (const kind of ["unknown", "rejected"]) {
      const ack = await client.timeout(5_000).emitWithAck("test:fail", { kind });
      expect(ack.error.code).toBe("internal");
      expect(ack.error.message).not.toMatch(/Cannot read|secret|\/srv|at /);
      expect(JSON.stringify(ack)).not.toContain("stack");
    }
    expect(lines.filter((line) => line.msg === "A socket handler failed.")).toHaveLength(2);
  });

  it("drops an event sent without an acknowledgement, with a warning", async () => {
    const { client, calls, lines } = await setUp();
    client.emit("test:echo", { text: "no ack" });
    // A later acknowledged event on the same socket is handled after the first one.
    await client.timeout(5_000).emitWithAck("test:echo", { text: "with ack" });
    expect(calls).toEqual(["with ack"]);
    expect(
      lines.some(
        (line) =>
          line.msg === "Dropped an event sent without an acknowledgement callback." &&
          line.event === "test:echo",
      ),
    ).toBe(true);
  });

  it("validates a contract event with its protocol schema (handleClientEvent)", async () => {
    const { client, calls } = await setUp();
    const ok = await client.timeout(5_000).emitWithAck("turn:stop", { chatId: "chat-1" });
    expect(ok).toEqual({ ok: true, value: { stopped: true } });
    const bad = await client.timeout(5_000).emitWithAck("turn:stop", {});
    expect(bad.error.code).toBe("bad_request");
    expect(bad.error.message).toContain("chatId");
    expect(calls).toEqual(["stop chat-1"]);
  });
});

describe("toWireError", () => {
  it("keeps wire codes and turns everything else into internal", () => {
    expect(
      toWireError(Object.assign(new Error("Wait."), { code: "rate_limited", retryable: true })),
    ).toEqual({
      code: "rate_limited",
      message: "Wait.",
      retryable: true,
    });
    expect(toWireError(Object.assign(new Error("x"), { code: "ENOENT" })).code).toBe("internal");
    expect(toWireError("a string").code).toBe("internal");
    expect(toWireError(null).code).toBe("internal");
  });
});
