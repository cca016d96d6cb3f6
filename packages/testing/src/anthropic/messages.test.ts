import { streamText, type ModelMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, modelFor, partsOf } from "../../test/provider-models";
import { authHeaders, payloads, post, readEvents } from "../../test/wire";
import { startProviderStandIn, type ProviderStandIn } from "../index";

const path = "/v1/messages";
let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn();
});
afterEach(async () => {
  await standIn.close();
});

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: "Hello" }],
    ...extra,
  };
}
const tool = { name: "get_time", input_schema: { type: "object" } };

describe("Messages streaming", () => {
  it("sends message_start, blocks with their deltas, a ping, message_delta and message_stop", async () => {
    standIn.respondWith([
      { text: "Hi there", toolCalls: [{ name: "get_time", arguments: { zone: "UTC" } }] },
    ]);
    const response = await post(standIn, path, body({ tools: [tool], stream: true }));
    const events = await readEvents(response);
    const data = payloads(events);

    expect(response.headers.get("request-id")).toMatch(/^req_011C/);
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(data.map((event) => event.type)).toEqual(events.map((event) => event.event));
    expect(data[0]?.message).toMatchObject({
      id: expect.stringMatching(/^msg_01[A-Za-z0-9]{22}$/),
      role: "assistant",
      content: [],
      stop_reason: null,
      usage: {
        input_tokens: expect.any(Number),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    });
    expect(data[1]).toEqual({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    });
    expect(data.slice(3, 5).map((event) => event.delta)).toEqual([
      { type: "text_delta", text: "Hi t" },
      { type: "text_delta", text: "here" },
    ]);
    expect(data[6]).toEqual({
      type: "content_block_start",
      index: 1,
      content_block: {
        type: "tool_use",
        id: expect.stringMatching(/^toolu_01[A-Za-z0-9]{22}$/),
        name: "get_time",
        input: {},
      },
    });
    const partials = data
      .slice(7, 11)
      .map((event) => (event.delta as { partial_json: string }).partial_json);
    expect(partials[0]).toBe("");
    expect(partials.join("")).toBe('{"zone":"UTC"}');
    expect(data[12]).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: expect.any(Number) },
    });
  });
});

describe("Anthropic prompt caching", () => {
  const system = "You are a careful assistant. ".repeat(100);
  function conversation(question: string): ModelMessage[] {
    return [
      {
        role: "system",
        content: system,
        providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
      },
      { role: "user", content: question },
    ];
  }

  it("reports the marked prefix as cache creation first, then as a cache read", async () => {
    const model = modelFor("anthropic", standIn);
    const first = await collect(
      streamText({ model, messages: conversation("One?"), maxRetries: 0 }).fullStream,
    );
    const second = await collect(
      streamText({ model, messages: conversation("Two?"), maxRetries: 0 }).fullStream,
    );

    const firstUsage = partsOf(first, "finish")[0]?.totalUsage;
    const secondUsage = partsOf(second, "finish")[0]?.totalUsage;
    expect(firstUsage?.inputTokenDetails.cacheWriteTokens).toBeGreaterThan(700);
    expect(firstUsage?.inputTokenDetails.cacheReadTokens).toBe(0);
    expect(secondUsage?.inputTokenDetails.cacheWriteTokens).toBe(0);
    expect(secondUsage?.inputTokenDetails.cacheReadTokens).toBe(
      firstUsage?.inputTokenDetails.cacheWriteTokens,
    );
    expect(secondUsage?.inputTokenDetails.noCacheTokens).toBeLessThan(20);
    const marked = (standIn.requests[0]?.body as { system: { cache_control?: unknown }[] }).system;
    expect(marked.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
  });

  it("refuses more than 4 cache_control markers", async () => {
    const marker = { cache_control: { type: "ephemeral" } };
    const blocks = Array.from({ length: 5 }, (_, index) => ({
      type: "text",
      text: `part ${index}`,
      ...marker,
    }));
    const response = await post(
      standIn,
      path,
      body({ messages: [{ role: "user", content: blocks }] }),
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
      },
    });
  });
});

describe("Messages refusals", () => {
  it("refuses a missing key and a wrong key with 401 authentication_error", async () => {
    const version = { "anthropic-version": "2023-06-01" };
    const missing = await post(standIn, path, body(), version);
    const wrong = await post(standIn, path, body(), { ...version, "x-api-key": "sk-ant-wrong" });

    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "x-api-key header is required" },
      request_id: expect.stringMatching(/^req_011C/),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({
      error: { type: "authentication_error", message: "invalid x-api-key" },
    });
  });

  it("refuses a request without anthropic-version", async () => {
    const response = await post(standIn, path, body(), { "x-api-key": standIn.apiKey });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: "anthropic-version: header is required" },
    });
  });

  it("refuses a tool name outside the pattern and two tools with one name", async () => {
    const invalid = await post(
      standIn,
      path,
      body({ tools: [tool, { ...tool, name: "basic.get-time" }] }),
    );
    const duplicate = await post(standIn, path, body({ tools: [tool, tool] }));

    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        message: "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
      },
    });
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toMatchObject({
      error: { message: "tools: Tool names must be unique." },
    });
  });

  it("refuses a tool_use without a tool_result in the next message, and a stray tool_result", async () => {
    const use = { type: "tool_use", id: "toolu_01A", name: "get_time", input: {} };
    const unanswered = await post(
      standIn,
      path,
      body({
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: [use] },
          { role: "user", content: "And?" },
        ],
      }),
    );
    const stray = await post(
      standIn,
      path,
      body({
        messages: [
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_01B", content: "ok" }],
          },
        ],
      }),
    );

    expect(unanswered.status).toBe(400);
    expect(await unanswered.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        message:
          "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
      },
    });
    expect(stray.status).toBe(400);
    expect(await stray.json()).toMatchObject({
      error: {
        message: expect.stringContaining(
          "unexpected `tool_use_id` found in `tool_result` blocks: toolu_01B",
        ),
      },
    });
  });

  it("accepts a tool round answered in the next message", async () => {
    const response = await post(
      standIn,
      path,
      body({
        tools: [tool],
        messages: [
          { role: "user", content: "Hi" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_01A", name: "get_time", input: {} }],
          },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "12:00" }],
          },
        ],
      }),
      authHeaders(standIn),
    );

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      type: "message",
      content: [{ type: "text", text: "The tool get_time returned: 12:00" }],
      stop_reason: "end_turn",
    });
  });
});
