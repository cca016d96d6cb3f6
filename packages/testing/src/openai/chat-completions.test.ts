import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authHeaders, payloads, post, readEvents } from "../../test/wire";
import { startProviderStandIn, type ProviderStandIn } from "../index";

const path = "/v1/chat/completions";
let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn();
});
afterEach(async () => {
  await standIn.close();
});

const tools = [
  { type: "function", function: { name: "get_time", parameters: { type: "object" } } },
];

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "gpt-4.1", messages: [{ role: "user", content: "Hello" }], ...extra };
}

describe("Chat Completions streaming", () => {
  it("streams the role, text in pieces, tool calls opened then in fragments, finish, usage, [DONE]", async () => {
    standIn.respondWith([
      { text: "Hi there", toolCalls: [{ name: "get_time", arguments: { zone: "UTC" } }] },
    ]);
    const response = await post(
      standIn,
      path,
      body({ tools, stream: true, stream_options: { include_usage: true } }),
    );
    const events = await readEvents(response);
    const chunks = payloads(events);

    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    const deltas = chunks
      .slice(0, -3)
      .map((chunk) => (chunk.choices as { delta: unknown }[])[0]?.delta);
    expect(deltas[0]).toEqual({ role: "assistant", content: "", refusal: null });
    expect(deltas.slice(1, 3)).toEqual([{ content: "Hi t" }, { content: "here" }]);
    const opening = deltas[3] as { tool_calls: unknown[] };
    expect(opening.tool_calls).toEqual([
      {
        index: 0,
        id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
        type: "function",
        function: { name: "get_time", arguments: "" },
      },
    ]);
    const fragments = deltas
      .slice(4)
      .map(
        (delta) =>
          (delta as { tool_calls: { index: number; function: { arguments: string } }[] })
            .tool_calls[0],
      );
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.every((fragment) => fragment?.index === 0 && !("id" in fragment))).toBe(true);
    expect(fragments.map((fragment) => fragment?.function.arguments).join("")).toBe(
      '{"zone":"UTC"}',
    );
    const [finish, usage, done] = chunks.slice(-3);
    expect(finish?.choices).toEqual([
      { index: 0, delta: {}, logprobs: null, finish_reason: "tool_calls" },
    ]);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expect(done).toEqual({ done: true });
    expect(
      chunks
        .slice(0, -1)
        .every((chunk) => chunk.object === "chat.completion.chunk" && chunk.id === chunks[0]?.id),
    ).toBe(true);
  });

  it("sends no usage chunk and no usage field unless stream_options.include_usage is set", async () => {
    const chunks = payloads(await readEvents(await post(standIn, path, body({ stream: true }))));

    expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
    expect(chunks.at(-2)?.choices).toEqual([
      { index: 0, delta: {}, logprobs: null, finish_reason: "stop" },
    ]);
  });

  it("answers a non-streaming request with a chat.completion body", async () => {
    standIn.respondWith([{ toolCalls: [{ name: "get_time" }] }]);
    const reply = (await (await post(standIn, path, body({ tools }))).json()) as Record<
      string,
      unknown
    >;

    expect(reply).toMatchObject({
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ type: "function", function: { name: "get_time", arguments: "{}" } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: expect.any(Number) },
    });
  });
});

describe("Chat Completions refusals", () => {
  it("refuses a missing key and a wrong key with 401 and the real bodies", async () => {
    const missing = await post(standIn, path, body(), {});
    const wrong = await post(standIn, path, body(), {
      authorization: "Bearer sk-wrong-key-1234567890abcd",
    });

    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: {
        message: expect.stringMatching(/^You didn't provide an API key\./),
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: {
        message:
          "Incorrect API key provided: sk-********************abcd. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    });
    expect(standIn.requests.map((request) => request.auth)).toEqual(["missing", "invalid"]);
  });

  it.each([
    [
      "a dot",
      "basic.get-time",
      "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      "invalid_value",
    ],
    [
      "65 characters",
      "a".repeat(65),
      "string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
      "string_above_max_length",
    ],
  ])("refuses a tool name with %s", async (_label, name, message, code) => {
    const response = await post(
      standIn,
      path,
      body({ tools: [tools[0], { type: "function", function: { name } }] }),
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: `Invalid 'tools[1].function.name': ${message}`,
        type: "invalid_request_error",
        param: "tools[1].function.name",
        code,
      },
    });
  });

  it("refuses an invalid name in an earlier tool call and two tools with one name", async () => {
    const history = await post(
      standIn,
      path,
      body({
        messages: [
          { role: "user", content: "Hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "a.b", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
        ],
      }),
    );
    const duplicate = await post(standIn, path, body({ tools: [tools[0], tools[0]] }));

    expect(history.status).toBe(400);
    expect(await history.json()).toMatchObject({
      error: { param: "messages[1].tool_calls[0].function.name" },
    });
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toMatchObject({
      error: { type: "invalid_request_error", param: "tools" },
    });
  });

  it("refuses a tool call not followed by its tool message, and a stray tool message", async () => {
    const unanswered = await post(
      standIn,
      path,
      body({
        messages: [
          { role: "user", content: "Hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "get_time", arguments: "{}" } },
              { id: "call_2", type: "function", function: { name: "get_time", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
          { role: "user", content: "And?" },
        ],
      }),
    );
    const stray = await post(
      standIn,
      path,
      body({
        messages: [
          { role: "user", content: "Hi" },
          { role: "tool", tool_call_id: "call_9", content: "ok" },
        ],
      }),
    );

    expect(unanswered.status).toBe(400);
    expect(await unanswered.json()).toEqual({
      error: {
        message:
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
        type: "invalid_request_error",
        param: "messages.[1].role",
        code: null,
      },
    });
    expect(stray.status).toBe(400);
    expect(await stray.json()).toMatchObject({ error: { param: "messages.[1].role" } });
  });

  it("answers an unknown path with 404 and keeps no key in the record", async () => {
    const response = await post(standIn, "/v1/completions", body());

    expect(response.status).toBe(404);
    expect(standIn.requests[0]).toMatchObject({ api: undefined, path: "/v1/completions" });
    expect(JSON.stringify(standIn.requests[0])).not.toContain(authHeaders(standIn).authorization);
  });
});
