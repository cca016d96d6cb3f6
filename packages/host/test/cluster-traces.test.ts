// Traces across nodes: a tab on node B opens a conversation whose reply node A
// is writing; B asks the other nodes for the reply's text through Redis, carrying its W3C trace
// context, and A's answer is a span of B's trace: a child of B's `live-reply ask`, linked to it.
// Real Postgres and Redis on 127.0.0.1; the spans go to the collector stand-in over OTLP/HTTP.
// Both nodes run in this process, so they share one tracer provider (B's, which the endpoint
// turned on); what crosses from one to the other goes through Redis only.
import {
  startPostgres,
  startRedis,
  startTraceCollector,
  type RunningPostgres,
  type RunningRedis,
  type TraceCollector,
} from "@mcp-chat-host/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAt, startNode, type TestNode } from "./cluster-support";

let postgres: RunningPostgres;
let redis: RunningRedis;
let collector: TraceCollector;
const nodes: TestNode[] = [];

beforeAll(async () => {
  [postgres, redis, collector] = await Promise.all([
    startPostgres(),
    startRedis(),
    startTraceCollector(),
  ]);
}, 120_000);

afterAll(async () => {
  for (const node of nodes.splice(0)) await node.close();
  await collector?.close();
  await redis?.stop();
  await postgres?.stop();
});

describe("traces across nodes", () => {
  it("makes node A's answer about its live reply a span of node B's trace", async () => {
    const shared = { databaseUrl: await postgres.createDatabase(), redisUrl: redis.url };
    const nodeA = await startNode("trace-node-a", shared);
    nodes.push(nodeA);
    const nodeB = await startNode("trace-node-b", shared, {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
    });
    nodes.push(nodeB);
    const cookie = await signInAt(nodeA);
    const writer = await nodeA.connect(cookie, "tab-writer");
    const reader = await nodeB.connect(cookie, "tab-reader");
    await writer.value("session:hello", {});
    await reader.value("session:hello", {});
    const created = await writer.value("conversation:create", { title: "Traced" });
    await writer.value("message:send", { chatId: "chat-1", text: "Tell me", clientId: "t-1" });
    const reply = await nodeA.writer.nextReply();
    reply.write("One, ");
    await writer.next(
      "message:chunk",
      ({ chunk }) => chunk.type === "text-delta" && chunk.delta === "One, ",
    );
    const snapshot = await reader.value("conversation:open", {
      conversationId: created.conversation.id,
    });
    expect(snapshot.messages.find((message) => message.status === "streaming")).toBeDefined();
    reply.finish();
    await writer.next("message:updated", ({ message }) => message.status === "complete");
    // B's provider exports what it holds when B closes.
    nodes.splice(nodes.indexOf(nodeB), 1);
    await nodeB.close();

    const spans = collector.spans;
    const open = spans.find((span) => span.name === "conversation:open");
    expect(open, spans.map((span) => span.name).join(", ")).toBeDefined();
    const ask = spans.find(
      (span) => span.name === "live-reply ask" && span.parentSpanId === open?.spanId,
    );
    expect(ask, "B asked the other nodes within its conversation:open").toBeDefined();
    expect(ask?.kind).toBe(3); // client
    const answer = spans.find((span) => span.name === "live-reply answer");
    expect(answer, "A answered in a span").toBeDefined();
    expect(answer?.kind).toBe(2); // server
    expect(answer?.traceId).toBe(ask?.traceId);
    expect(answer?.parentSpanId).toBe(ask?.spanId);
    expect(answer?.links).toEqual([{ traceId: ask?.traceId, spanId: ask?.spanId }]);
    expect(answer?.attributes["mcp_chat_host.live_reply.found"]).toBe(true);
    expect(ask?.attributes["mcp_chat_host.live_reply.found"]).toBe(true);
  }, 90_000);
});
