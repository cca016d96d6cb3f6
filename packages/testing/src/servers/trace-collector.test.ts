import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { startTraceCollector, type TraceCollector } from "./trace-collector";

let collector: TraceCollector | undefined;

afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

/** One span in OTLP JSON, as the OpenTelemetry JS exporter writes it. */
const exportRequest = {
  resourceSpans: [
    {
      resource: {
        attributes: [{ key: "service.name", value: { stringValue: "mcp-chat-host" } }],
      },
      scopeSpans: [
        {
          scope: { name: "mcp-chat-host" },
          spans: [
            {
              traceId: "5b8efff798038103d269b633813fc60c",
              spanId: "eee19b7ec3c1b174",
              parentSpanId: "eee19b7ec3c1b173",
              name: "turn",
              kind: 1,
              startTimeUnixNano: "1544712660000000000",
              endTimeUnixNano: "1544712661000000000",
              attributes: [
                { key: "mcp_chat_host.chat", value: { stringValue: "chat-1" } },
                { key: "gen_ai.usage.input_tokens", value: { intValue: "12" } },
                { key: "found", value: { boolValue: true } },
                {
                  key: "gen_ai.response.finish_reasons",
                  value: { arrayValue: { values: [{ stringValue: "stop" }] } },
                },
              ],
              links: [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331" }],
              status: { code: 2, message: "busy" },
            },
          ],
        },
      ],
    },
  ],
};

describe("the traces collector stand-in", () => {
  it("takes OTLP JSON, plain or gzip, answers as the collector does and keeps the spans", async () => {
    collector = await startTraceCollector();
    const plain = await fetch(`${collector.endpoint}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify(exportRequest),
    });
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ partialSuccess: {} });
    const compressed = await fetch(`${collector.endpoint}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(JSON.stringify(exportRequest)),
    });
    expect(compressed.status).toBe(200);
    const spans = await collector.waitFor((received) => received.length === 2, 5_000);
    expect(spans[0]).toEqual({
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      parentSpanId: "eee19b7ec3c1b173",
      name: "turn",
      kind: 1,
      attributes: {
        "mcp_chat_host.chat": "chat-1",
        "gen_ai.usage.input_tokens": 12,
        found: true,
        "gen_ai.response.finish_reasons": ["stop"],
      },
      links: [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331" }],
      status: { code: 2, message: "busy" },
      resource: { "service.name": "mcp-chat-host" },
      startTimeUnixNano: "1544712660000000000",
      endTimeUnixNano: "1544712661000000000",
    });
    expect(collector.requests.map((request) => request.encoding)).toEqual(["identity", "gzip"]);
    expect(collector.requests[0]?.headers["authorization"]).toBe("Bearer t");
  });

  it("refuses protobuf, a body that is not JSON and other paths, keeping nothing", async () => {
    collector = await startTraceCollector();
    const post = (path: string, type: string, body: string) =>
      fetch(`${collector?.endpoint}${path}`, {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
    expect((await post("/v1/traces", "application/x-protobuf", "\u0000")).status).toBe(415);
    expect((await post("/v1/traces", "application/json", "{not json")).status).toBe(400);
    expect((await post("/v1/metrics", "application/json", "{}")).status).toBe(404);
    expect(collector.spans).toEqual([]);
    await expect(collector.waitFor((spans) => spans.length > 0, 50)).rejects.toThrow(
      "did not get the spans awaited",
    );
  });
});
