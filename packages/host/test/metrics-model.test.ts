// The model's side of the metrics against a real provider HTTP API (the test
// suite's OpenAI-compatible stand-in, the real AI SDK adapter): a request the provider was too
// busy for is sent again and counted twice, and a turn the provider refuses counts as an error
// turn and a failure of its kind.
import { startProviderStandIn, type ProviderStandIn } from "@mcp-chat-host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { metricSample } from "../src/testing";
import { clockApp, exchange, startHost, type TestHost } from "./harness";

const token = "model-metrics-token-3c9d51e0a7b24f68";

let standIn: ProviderStandIn;
let host: TestHost | null = null;

beforeEach(async () => {
  standIn = await startProviderStandIn();
});

afterEach(async () => {
  await host?.close();
  host = null;
  await standIn.close();
});

async function scrape(origin: string): Promise<string> {
  const response = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe("model metrics", () => {
  it("count each request (a retry too), each turn by outcome and each failure by kind", async () => {
    const calls: string[] = [];
    host = await startHost({
      model: `openai-compatible:${standIn.openaiBaseURL}#local-model`,
      env: { OPENAI_COMPATIBLE_API_KEY: standIn.apiKey },
      metrics: { token },
      session(session) {
        mcpChatHost(session.chat(), [clockApp("clock", "get-time", calls)]);
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});

    // Busy once (no wait asked), then answered: two requests, one complete turn.
    standIn.injectFault({ kind: "http", status: 503, retryAfterSeconds: 0 });
    const busy = await exchange(client, "chat-1", "hello there");
    expect(busy.reply.status).toBe("complete");
    expect(standIn.requests).toHaveLength(2);
    let text = await scrape(host.origin);
    // The adapter's provider id, as the failure log names it.
    const byProvider = { provider: "openai-compatible.chat" };
    expect(metricSample(text, "mcp_chat_host_model_requests_total", byProvider)).toBe(2);
    expect(metricSample(text, "mcp_chat_host_turns_total", { outcome: "complete" })).toBe(1);

    // A key the provider refuses: an error turn, and an `auth` failure.
    standIn.injectFault({ kind: "http", status: 401 });
    const refused = await exchange(client, "chat-1", "hello again");
    expect(refused.reply.status).toBe("error");
    text = await scrape(host.origin);
    expect(metricSample(text, "mcp_chat_host_model_requests_total", byProvider)).toBe(3);
    expect(metricSample(text, "mcp_chat_host_turns_total", { outcome: "error" })).toBe(1);
    expect(
      metricSample(text, "mcp_chat_host_model_failures_total", { ...byProvider, kind: "auth" }),
    ).toBe(1);

    // A tool call through the real adapter: counted at its source, as the model's.
    const called = await exchange(client, "chat-1", "call get-time {}");
    expect(called.reply.status).toBe("complete");
    expect(calls).toEqual(["clock/get-time"]);
    text = await scrape(host.origin);
    expect(
      metricSample(text, "mcp_chat_host_tool_calls_total", {
        source: "clock",
        tool: "get-time",
        caller: "model",
        outcome: "ok",
      }),
    ).toBe(1);
    expect(metricSample(text, "mcp_chat_host_turns_total", { outcome: "complete" })).toBe(2);
  });
});
