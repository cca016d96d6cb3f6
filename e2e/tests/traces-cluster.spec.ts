// Traces across nodes with the published program: two nodes of dist/cli.js on
// one Postgres and one Redis, both exporting to the collector stand-in. A reply streams on node A
// (the provider stand-in stalls it after its first pieces); a tab on node B opens the
// conversation, so B asks the other nodes through Redis for the reply's text. A's answer is a span
// of B's trace: a child of B's `live-reply ask`, linked to it, each span naming its own node.
import { expect, test } from "@playwright/test";
import {
  startPostgres,
  startProviderStandIn,
  startRedis,
  startTraceCollector,
} from "@mcp-chat-host/testing";
import { signedInClient, startProgram } from "../support/traced-program";

const cleanups: Array<() => Promise<void> | void> = [];

test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test("node A's answer about its live reply is a span of node B's trace, linked to B's ask", async () => {
  test.setTimeout(180_000);
  const [postgres, redis, collector, standIn] = await Promise.all([
    startPostgres(),
    startRedis(),
    startTraceCollector(),
    startProviderStandIn(),
  ]);
  cleanups.push(
    () => postgres.stop(),
    () => redis.stop(),
    () => collector.close(),
    () => standIn.close(),
  );
  standIn.respondWith(() => ({ text: "Once upon a time there was a very long story to tell." }));
  const databaseUrl = await postgres.createDatabase();
  // The first pieces, then nothing: the reply stays streaming on A.
  standIn.injectFault({ kind: "stall", afterEvents: 4 });
  const environment = (nodeId: string) => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    SESSION_SECRET: "traces-cluster-secret-of-at-least-32-characters",
    NODE_ID: nodeId,
    MODEL: `openai-compatible:${standIn.openaiBaseURL}#local-model`,
    OPENAI_COMPATIBLE_API_KEY: standIn.apiKey,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
  });
  const nodeA = await startProgram(environment("trace-a"), ["--drain-timeout", "0"]);
  cleanups.push(() => nodeA.stop());
  const nodeB = await startProgram(environment("trace-b"), ["--drain-timeout", "0"]);
  cleanups.push(() => nodeB.stop());

  const writer = await signedInClient(nodeA.signIn, "tab-writer");
  cleanups.push(() => writer.close());
  await writer.value("session:hello", {});
  const created = await writer.value("conversation:create", { title: "Traced" });
  await writer.value("message:send", { chatId: "chat-1", text: "a story", clientId: "x-1" });
  await writer.next("message:chunk", ({ chunk }) => chunk.type === "text-delta", 30_000);

  // The same person's other tab, on node B (the sign-in cookie works on every node).
  const reader = await signedInClient(nodeB.signIn, "tab-reader");
  cleanups.push(() => reader.close());
  await reader.value("session:hello", {});
  const snapshot = await reader.value("conversation:open", {
    conversationId: created.conversation.id,
  });
  expect(snapshot.messages.some((message) => message.status === "streaming")).toBe(true);
  writer.close();
  reader.close();
  // Each node exports what it holds as it stops.
  await nodeB.stop();
  await nodeA.stop();

  const spans = collector.spans;
  const ask = spans.find((span) => span.name === "live-reply ask");
  expect(ask, spans.map((span) => span.name).join(", ")).toBeDefined();
  expect(ask?.resource["service.instance.id"]).toBe("trace-b");
  const open = spans.find((span) => span.spanId === ask?.parentSpanId);
  expect(open?.name).toBe("conversation:open");
  const answer = spans.find(
    (span) => span.name === "live-reply answer" && span.parentSpanId === ask?.spanId,
  );
  expect(answer, "node A answered within B's trace").toBeDefined();
  expect(answer?.resource["service.instance.id"]).toBe("trace-a");
  expect(answer?.traceId).toBe(ask?.traceId);
  expect(answer?.links).toEqual([{ traceId: ask?.traceId, spanId: ask?.spanId }]);
  expect(answer?.attributes["mcp_chat_host.live_reply.found"]).toBe(true);
});
