import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { toWireError } from "../errors/to-wire-error";
import { HostError } from "../host-error";
import { clientEventSchemas } from "@mcp-chat-host/protocol";
import { validatedHandler } from "./validated-handler";
import {
  connectSocket,
  memoryLogger,
  runCleanups,
  signIn,
  startLayer,
  type LogLine,
} from "../testing/http-layer-support";
import type { HttpLayerOptions } from "./http-layer";
import type { Socket as ClientSocket } from "socket.io-client";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** A local error whose code happens to be spelled like a wire code. */
class CardNotFoundError extends Error {
  readonly code = "not_found";
  readonly rpcCode = -32600;
}

const failKinds = ["host", "lookalike", "wire", "unknown", "rejected"] as const;

/** What the `test:fail` handlers throw for each kind. */
async function fail(kind: (typeof failKinds)[number]): Promise<never> {
  if (kind === "host")
    throw new HostError("not_found", "That card is closed; open it again from the conversation.", {
      rpcCode: -32600,
    });
  if (kind === "lookalike") throw new CardNotFoundError("secret internal detail at /srv/x.ts");
  if (kind === "wire")
    throw wireError("busy", "secret internal detail at /srv/x.ts", { retryable: true });
  if (kind === "rejected") return Promise.reject(new Error("secret internal detail at /srv/x.ts"));
  throw new TypeError("Cannot read properties of undefined (reading 'x')");
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
      validatedHandler(z.object({ kind: z.enum(failKinds) }), (payload) => fail(payload.kind), {
        logger,
        event: "test:fail",
        toWireError,
      }),
    );
    on(
      "test:fail-unmapped",
      validatedHandler(z.object({ kind: z.enum(failKinds) }), (payload) => fail(payload.kind), {
        logger,
        event: "test:fail-unmapped",
      }),
    );
    socket.on(
      "turn:stop",
      validatedHandler(
        clientEventSchemas["turn:stop"],
        (payload) => {
          calls.push(`stop ${payload.chatId}`);
          return { stopped: true };
        },
        { logger, event: "turn:stop" },
      ),
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

  it("answers a thrown HostError as it is, through the given mapping", async () => {
    const { client } = await setUp();
    const host = await client.timeout(5_000).emitWithAck("test:fail", { kind: "host" });
    expect(host).toEqual({
      ok: false,
      error: {
        code: "not_found",
        message: "That card is closed; open it again from the conversation.",
        retryable: false,
        rpcCode: -32600,
      },
    });
  });

  it("maps unknown errors, rejections and wire-code lookalikes to internal without leaking their message or stack", async () => {
    const { client, lines } = await setUp();
    for (const kind of ["unknown", "rejected", "lookalike", "wire"]) {
      const ack = await client.timeout(5_000).emitWithAck("test:fail", { kind });
      expect(ack.error.code).toBe("internal");
      expect(ack.error.retryable).toBe(false);
      expect(ack.error.message).not.toMatch(/Cannot read|secret|\/srv|at /);
      expect(JSON.stringify(ack)).not.toContain("stack");
    }
    expect(lines.filter((line) => line.msg === "A socket handler failed.")).toHaveLength(4);
  });

  it("knows no local errors without a mapping: even a HostError is internal", async () => {
    const { client } = await setUp();
    const ack = await client.timeout(5_000).emitWithAck("test:fail-unmapped", { kind: "host" });
    expect(ack.error.code).toBe("internal");
    expect(ack.error.message).not.toContain("card is closed");
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

  it("validates a contract event with its protocol schema", async () => {
    const { client, calls } = await setUp();
    const ok = await client.timeout(5_000).emitWithAck("turn:stop", { chatId: "chat-1" });
    expect(ok).toEqual({ ok: true, value: { stopped: true } });
    const bad = await client.timeout(5_000).emitWithAck("turn:stop", {});
    expect(bad.error.code).toBe("bad_request");
    expect(bad.error.message).toContain("chatId");
    expect(calls).toEqual(["stop chat-1"]);
  });
});
