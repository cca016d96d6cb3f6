import { jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, modelFor, partsOf, textOf } from "../../test/provider-models";
import { payloads, post, readEvents } from "../../test/wire";
import { messageRolesOf, startProviderStandIn, type ProviderStandIn } from "../index";

const path = "/v1/responses";
let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn();
});
afterEach(async () => {
  await standIn.close();
});

const getTime = tool({
  inputSchema: jsonSchema<{ zone: string }>({
    type: "object",
    properties: { zone: { type: "string" } },
    required: ["zone"],
  }),
  execute: async () => ({ time: "12:00" }),
});

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "gpt-4.1", input: [{ role: "user", content: "Hello" }], store: false, ...extra };
}

describe("Responses streaming", () => {
  it("sends the real event sequence with sequence numbers, item ids and usage", async () => {
    standIn.respondWith([{ text: "Hi there", toolCalls: [{ name: "get_time", arguments: "{}" }] }]);
    const tools = [{ type: "function", name: "get_time", parameters: { type: "object" } }];
    const events = await readEvents(await post(standIn, path, body({ tools, stream: true })));
    const data = payloads(events);

    expect(events.map((event) => event.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(data.map((event) => event.type)).toEqual(events.map((event) => event.event));
    expect(data.map((event) => event.sequence_number)).toEqual(data.map((_event, index) => index));
    expect(data[0]?.response).toMatchObject({
      id: expect.stringMatching(/^resp_[0-9a-f]{48}$/),
      status: "in_progress",
      store: false,
    });
    expect(data[2]?.item).toMatchObject({
      id: expect.stringMatching(/^msg_[0-9a-f]{48}$/),
      type: "message",
    });
    expect(data[9]?.item).toMatchObject({
      id: expect.stringMatching(/^fc_[0-9a-f]{48}$/),
      type: "function_call",
      call_id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
      name: "get_time",
      arguments: "",
    });
    expect(data.at(-1)?.response).toMatchObject({
      status: "completed",
      usage: {
        input_tokens: expect.any(Number),
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: expect.any(Number),
      },
    });
  });

  it("reports a repeated prefix of 1,024 tokens or more as cached_tokens, and the AI SDK reads it", async () => {
    const instructions = "Answer briefly. ".repeat(400);
    const model = modelFor("responses", standIn);
    const options = { providerOptions: { openai: { store: false, instructions } }, maxRetries: 0 };
    const first = await collect(streamText({ model, prompt: "One", ...options }).fullStream);
    const second = await collect(streamText({ model, prompt: "Two", ...options }).fullStream);

    expect(partsOf(first, "finish")[0]?.totalUsage.inputTokenDetails.cacheReadTokens).toBe(0);
    const usage = partsOf(second, "finish")[0]?.totalUsage;
    expect(usage?.inputTokenDetails.cacheReadTokens).toBeGreaterThanOrEqual(1024);
    expect((usage?.inputTokenDetails.cacheReadTokens ?? 0) % 128).toBe(0);
  });
});

describe("a tool round through the AI SDK Responses adapter", () => {
  async function toolRound(store: boolean | undefined) {
    standIn.respondWith([
      { text: "Let me look.", toolCalls: [{ name: "get_time", arguments: { zone: "UTC" } }] },
    ]);
    const result = streamText({
      model: modelFor("responses", standIn),
      prompt: "What time is it?",
      tools: { get_time: getTime },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
      onError: () => {},
      ...(store === undefined ? {} : { providerOptions: { openai: { store } } }),
    });
    return collect(result.fullStream);
  }

  it("with store: false sends the full items back (the text with its msg_ id, the call, its output) and succeeds", async () => {
    const run = await toolRound(false);
    const second = standIn.requests[1];

    expect(partsOf(run, "error")).toEqual([]);
    expect(textOf(run)).toContain('The tool get_time returned: {"time":"12:00"}');
    expect(messageRolesOf(second!)).toEqual([
      "user",
      "assistant",
      "function_call",
      "function_call_output",
    ]);
    const input = (second?.body as { input: Record<string, unknown>[] }).input;
    expect(input[1]).toEqual({
      role: "assistant",
      content: [{ type: "output_text", text: "Let me look." }],
      id: expect.stringMatching(/^msg_/),
    });
    expect(input[2]).toEqual({
      type: "function_call",
      call_id: expect.stringMatching(/^call_/),
      name: "get_time",
      arguments: '{"zone":"UTC"}',
    });
    expect(input[3]).toMatchObject({ type: "function_call_output", call_id: input[2]?.call_id });
    expect((second?.body as { store?: boolean }).store).toBe(false);
  });

  it("left at the default (store true) refers to the earlier text by item_reference, which a store-less API refuses with 404", async () => {
    const run = await toolRound(undefined);
    const second = standIn.requests[1];

    expect(messageRolesOf(second!)).toEqual([
      "user",
      "item_reference",
      "function_call",
      "function_call_output",
    ]);
    expect(second?.status).toBe(404);
    const [error] = partsOf(run, "error");
    expect(error?.error).toMatchObject({
      name: "AI_APICallError",
      statusCode: 404,
      message: expect.stringMatching(/^Item with id 'msg_[0-9a-f]{48}' not found\.$/),
    });
  });
});

describe("Responses refusals", () => {
  it("refuses an item_reference with 404 (nothing is stored)", async () => {
    const response = await post(
      standIn,
      path,
      body({
        input: [
          { role: "user", content: "Hi" },
          { type: "item_reference", id: "msg_123" },
        ],
      }),
    );

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        message:
          "Item with id 'msg_123' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
        type: "invalid_request_error",
        param: "input",
        code: null,
      },
    });
  });

  it("refuses previous_response_id and a reasoning item sent by id without its encrypted content", async () => {
    const previous = await post(standIn, path, body({ previous_response_id: "resp_1" }));
    const reasoning = await post(
      standIn,
      path,
      body({
        input: [
          { type: "reasoning", id: "rs_1", summary: [] },
          { role: "user", content: "Hi" },
        ],
      }),
    );

    expect(previous.status).toBe(400);
    expect(await previous.json()).toMatchObject({ error: { code: "previous_response_not_found" } });
    expect(reasoning.status).toBe(404);
    expect(await reasoning.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Item with id 'rs_1' not found\./) },
    });
  });

  it("refuses a function_call without its output, and an output without its call", async () => {
    const call = { type: "function_call", call_id: "call_1", name: "get_time", arguments: "{}" };
    const unanswered = await post(
      standIn,
      path,
      body({ input: [{ role: "user", content: "Hi" }, call] }),
    );
    const stray = await post(
      standIn,
      path,
      body({
        input: [
          { role: "user", content: "Hi" },
          { type: "function_call_output", call_id: "call_2", output: "ok" },
        ],
      }),
    );

    expect(unanswered.status).toBe(400);
    expect(await unanswered.json()).toEqual({
      error: {
        message: "No tool output found for function call call_1.",
        type: "invalid_request_error",
        param: "input",
        code: null,
      },
    });
    expect(stray.status).toBe(400);
    expect(await stray.json()).toMatchObject({
      error: { message: "No tool call found for function call output with call_id call_2." },
    });
  });

  it("refuses a tool name outside the pattern, naming tools[i].name", async () => {
    const response = await post(
      standIn,
      path,
      body({ tools: [{ type: "function", name: "a b", parameters: {} }] }),
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { param: "tools[0].name", code: "invalid_value" },
    });
  });
});
