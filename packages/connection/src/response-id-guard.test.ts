// The reply-id guard on its own, over a scripted transport (fault injection: the test plays the
// server). Integration with real processes is in mcp-client-session.test.ts.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { ResponseIdGuard } from "./response-id-guard";

class ScriptedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  deliver(message: unknown): void {
    this.onmessage?.(message as JSONRPCMessage);
  }
}

async function setUp() {
  const inner = new ScriptedTransport();
  const strays: unknown[] = [];
  const progress: unknown[] = [];
  let closes = 0;
  const guard = new ResponseIdGuard(inner, {
    onUnexpectedResponse: (message) => strays.push(message),
    onTransportClose: () => (closes += 1),
    onProgress: (params) => {
      if (params?.["progressToken"] !== "mine") return false;
      progress.push(params["progress"]);
      return true;
    },
  });
  const delivered: unknown[] = [];
  guard.onmessage = (message) => delivered.push(message);
  await guard.start();
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return { inner, guard, strays, progress, delivered, nextTurn, closes: () => closes };
}

describe("ResponseIdGuard", () => {
  it("delivers answers to requests in flight, and reports a second answer as a stray", async () => {
    const { inner, guard, strays, delivered, nextTurn } = await setUp();
    await guard.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await guard.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(guard.inFlightCount).toBe(2);
    inner.deliver({ jsonrpc: "2.0", id: 2, result: {} });
    expect(delivered).toHaveLength(1);
    inner.deliver({ jsonrpc: "2.0", id: 2, result: {} });
    inner.deliver({ jsonrpc: "2.0", id: 1, result: {} });
    expect(delivered).toHaveLength(1);
    // Reported after the current turn, once.
    expect(strays).toHaveLength(0);
    await nextTurn();
    expect(strays).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
  });

  it.each([
    ["a null id", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
    ["no id", { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } }],
  ])("reports a reply with %s as a stray, not as a message for the SDK", async (_label, reply) => {
    const { inner, guard, strays, delivered, nextTurn } = await setUp();
    await guard.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
    inner.deliver(reply);
    await nextTurn();
    expect(delivered).toEqual([]);
    expect(strays).toEqual([reply]);
  });

  it("matches a string id to a numeric request id numerically", async () => {
    const { inner, guard, strays, delivered, nextTurn } = await setUp();
    await guard.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    inner.deliver({ jsonrpc: "2.0", id: "3", result: { tools: [] } });
    await nextTurn();
    expect(delivered).toHaveLength(1);
    expect(strays).toHaveLength(0);
  });

  it("drops a late answer to a cancelled request quietly", async () => {
    const { inner, guard, strays, delivered, nextTurn } = await setUp();
    await guard.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "x" } });
    await guard.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 4, reason: "stopped" },
    });
    expect(guard.inFlightCount).toBe(0);
    inner.deliver({ jsonrpc: "2.0", id: 4, result: { content: [] } });
    await nextTurn();
    expect(delivered).toHaveLength(0);
    expect(strays).toHaveLength(0);
    // Only once: a second answer to the same id is a stray.
    inner.deliver({ jsonrpc: "2.0", id: 4, result: { content: [] } });
    await nextTurn();
    expect(strays).toHaveLength(1);
  });

  it("hands progress notifications to the hook in message order and passes others on", async () => {
    const { inner, progress, delivered } = await setUp();
    const notification = (token: string, value: number) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: token, progress: value },
    });
    inner.deliver(notification("mine", 1));
    inner.deliver(notification("theirs", 2));
    expect(progress).toEqual([1]);
    expect(delivered).toEqual([notification("theirs", 2)]);
  });

  it("tells its owner about a transport close before the SDK hears of it", async () => {
    const { guard, closes } = await setUp();
    const order: string[] = [];
    guard.onclose = () => order.push(`sdk after ${closes()} owner close`);
    await guard.close();
    expect(order).toEqual(["sdk after 1 owner close"]);
  });
});
