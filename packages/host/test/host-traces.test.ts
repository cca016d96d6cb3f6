// Traces of a host in this process: a page's tool call is an
// `execute_tool <tool>` span under its `card:call-tool` event, saying the caller was the page, the
// card's source and the gate's verdict (a refused call too); a turn the provider refuses (401)
// marks its span and its request's with the failure's kind. The spans go to the collector
// stand-in over OTLP/HTTP.
import {
  startProviderStandIn,
  startTraceCollector,
  type ProviderStandIn,
  type TraceCollector,
} from "@mcp-chat-host/testing";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { greeterApp, openCard, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
let collector: TraceCollector | null = null;
let standIn: ProviderStandIn | null = null;

afterEach(async () => {
  await standIn?.close();
  standIn = null;
  await host?.close();
  host = null;
  await collector?.close();
  collector = null;
});

describe("traces of a page's calls", () => {
  it("makes each page call a span under its socket event, with the caller, source and verdict", async () => {
    collector = await startTraceCollector();
    host = await startHost({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), {
          onAppCall: (call) => (call.arguments["name"] === "Bo" ? "Not Bo." : true),
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    await client.value("card:attach", { instanceId: card.instanceId });
    await client.value("card:call-tool", {
      instanceId: card.instanceId,
      name: "set-name",
      arguments: { name: "Cyrilla-7" },
    });
    const refused = await client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "set-name",
      arguments: { name: "Bo" },
    });
    expect(refused.ok).toBe(false);
    // Closing the host shuts its tracer provider down, which exports every span.
    await host.close();
    host = null;

    const events = collector.spans.filter((span) => span.name === "card:call-tool");
    expect(events).toHaveLength(2);
    const calls = events.map((event) =>
      collector?.spans.find(
        (span) => span.name === "execute_tool set-name" && span.parentSpanId === event.spanId,
      ),
    );
    expect(calls.map((call) => call?.attributes)).toEqual([
      expect.objectContaining({
        "mcp_chat_host.tool.caller": "page",
        "mcp_chat_host.tool.source": "greeter",
        "mcp_chat_host.outcome": "allowed",
      }),
      expect.objectContaining({
        "mcp_chat_host.tool.caller": "page",
        "mcp_chat_host.outcome": "refused",
        "error.type": "refused",
      }),
    ]);
    // The refused call's socket event carries the wire error's code, not its sentence.
    expect(events[1]?.status.code).toBe(2);
    expect(events[1]?.attributes["error.type"]).toBe("refused");
    expect(JSON.stringify(collector.spans)).not.toContain("Not Bo.");
    expect(JSON.stringify(collector.spans)).not.toContain("Cyrilla-7");
  });

  it("marks a turn the provider refused, and its request, with the failure's kind", async () => {
    collector = await startTraceCollector();
    standIn = await startProviderStandIn();
    standIn.injectFault({ kind: "http", status: 401 });
    host = await startHost({
      model: `openai-compatible:${standIn.openaiBaseURL}#local-model`,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OPENAI_COMPATIBLE_API_KEY: standIn.apiKey,
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    await client.value("message:send", { chatId: "chat-1", text: "Hello", clientId: "f-1" });
    const failed = await client.next(
      "message:updated",
      ({ message }) => message.role === "assistant" && message.status !== "streaming",
    );
    expect(failed.message.status).toBe("error");
    await host.close();
    host = null;

    const turn = collector.spans.find((span) => span.name === "turn");
    expect(turn?.attributes).toMatchObject({
      "mcp_chat_host.turn.outcome": "error",
      "mcp_chat_host.turn.failure_kind": "auth",
      "error.type": "auth",
    });
    expect(turn?.status.code).toBe(2);
    const request = collector.spans.find(
      (span) => span.name === "chat local-model" && span.parentSpanId === turn?.spanId,
    );
    expect(request?.attributes).toMatchObject({
      "gen_ai.request.model": "local-model",
      "mcp_chat_host.outcome": "error",
      "mcp_chat_host.model.failure_kind": "auth",
      "http.response.status_code": 401,
    });
    expect(JSON.stringify(collector.spans)).not.toContain(standIn.apiKey);
  });
});
