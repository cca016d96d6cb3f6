// Whole turns against the real AI SDK adapters over HTTP, through the provider stand-ins of
// @mcp-chat-host/testing: what each provider's faults become, what each request carries (store,
// usage, cache breakpoints), and that a stall closes the connection.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { messageRolesOf, startProviderStandIn } from "@mcp-chat-host/testing";
import type { Fault, ProviderStandIn } from "@mcp-chat-host/testing";
import { runTurn } from "./model-runner";
import type { RunTurnOptions } from "./model-runner";
import { resolveModel } from "./model-selection";
import { createTestClock } from "../testing/turn-test-clock";
import { systemClock } from "./turn-clock";
import { startTestToolServer } from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { TurnFailureKind } from "./turn-events";

let standIn: ProviderStandIn;
let tools: TestToolServer;
beforeAll(async () => {
  standIn = await startProviderStandIn();
  tools = await startTestToolServer();
});
afterAll(async () => {
  await tools.close();
  await standIn.close();
});

function environment(key = standIn.apiKey): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: key,
    ANTHROPIC_BASE_URL: standIn.anthropicBaseURL,
    OPENAI_API_KEY: key,
    OPENAI_BASE_URL: standIn.openaiBaseURL,
    OPENAI_COMPATIBLE_API_KEY: key,
  };
}

const specs = () =>
  [
    ["anthropic", "anthropic:claude-sonnet-4-5"],
    ["openai", "openai:gpt-4.1"],
    ["openai-chat", "openai-chat:gpt-4.1"],
    ["openai-compatible", `openai-compatible:${standIn.openaiBaseURL}#llama3.2`],
  ] as const;
const names = ["anthropic", "openai", "openai-chat", "openai-compatible"] as const;
type Name = (typeof names)[number];
const specOf = (name: Name): string => specs().find(([candidate]) => candidate === name)![1];

function turn(spec: string, overrides: Partial<RunTurnOptions> = {}, key?: string) {
  return runTurn({
    model: resolveModel(spec, environment(key)),
    messages: [{ role: "user", content: "Hello there" }],
    tools: tools.tools,
    maxSteps: 4,
    maxToolCalls: 4,
    permissions: { web: false, write: false },
    clock: createTestClock().clock,
    ...overrides,
  });
}

// A request that meets a fault takes no scripted reply, so tests with faults queue none: a reply
// left in the queue would answer the next test.
let seen = 0;
beforeEach(() => {
  seen = standIn.requests.length;
});
const requestsOfTest = () => standIn.requests.slice(seen);

describe.each(names)("%s", (name) => {
  test("a reply ends complete, with its usage", async () => {
    standIn.respondWith([
      { text: "Hi.", usage: { inputTokens: 100, outputTokens: 5, cachedInputTokens: 40 } },
    ]);
    const result = await turn(specOf(name));
    expect(result).toMatchObject({ status: "complete", text: "Hi." });
    expect(result.usage?.outputTokens).toBe(5);
    expect(result.usage?.cachedInputTokens).toBe(40);
    expect(result.usage?.inputTokens).toBeGreaterThanOrEqual(100);
  });

  const faults: Array<[string, Fault, TurnFailureKind]> = [
    ["a stream without its finish event", { kind: "no-finish" }, "cut-off"],
    ["a cut connection", { kind: "cut" }, "network"],
    ["a malformed chunk", { kind: "malformed" }, "malformed"],
    ["a 401", { kind: "http", status: 401 }, "auth"],
    ["a 500", { kind: "http", status: 500 }, "provider-error"],
  ];
  test.each(faults)("%s fails the turn as %s", async (_label, fault, kind) => {
    standIn.injectFault(fault);
    const result = await turn(specOf(name));
    expect(result.status).toBe("error");
    expect(result.failure?.kind).toBe(kind);
    expect(result.failure?.message).not.toMatch(/[{}]|sk-|object Object|stand-in-key/);
  });

  test("an in-stream error event is told in words", async () => {
    standIn.injectFault({ kind: "stream-error" });
    const result = await turn(specOf(name));
    expect(result.status).toBe("error");
    expect(result.failure?.message).toMatch(/^[A-Z][^{}]*\.$/);
    expect(result.failure?.message).not.toContain("object Object");
  });

  test("a wrong key names the variable to set", async () => {
    const result = await turn(specOf(name), {}, "wrong-key");
    expect(result.failure?.kind).toBe("auth");
    const variable =
      name === "anthropic"
        ? "ANTHROPIC_API_KEY"
        : name === "openai-compatible"
          ? "OPENAI_COMPATIBLE_API_KEY"
          : "OPENAI_API_KEY";
    expect(result.failure?.message).toContain(`Check ${variable}`);
    expect(result.failure?.message).not.toContain("wrong-key");
  });

  test("a 429 is retried after its retry-after, then the reply comes", async () => {
    const clock = createTestClock();
    standIn.injectFault({ kind: "http", status: 429, retryAfterSeconds: 2 });
    standIn.respondWith([{ text: "Second time lucky." }]);
    const result = await turn(specOf(name), { clock: clock.clock });
    expect(result).toMatchObject({ status: "complete", text: "Second time lucky." });
    expect(clock.sleeps.map((sleep) => sleep.ms)).toEqual([2000]);
    expect(requestsOfTest().map((request) => request.status)).toEqual([429, 200]);
  });

  test("a stall closes the connection and fails the turn as stalled", async () => {
    standIn.injectFault({ kind: "stall", afterEvents: 2 });
    // The real clock: the stand-in never sends more, so the watch fires after 200 ms.
    const result = await turn(specOf(name), { clock: systemClock, stallTimeoutMs: 200 });
    expect(result.failure).toMatchObject({
      kind: "stalled",
      message: "The model stopped answering for 1 s; try again.",
    });
    const [request] = requestsOfTest();
    await request?.settled;
    expect(request?.closedByClient).toBe(true);
  });
});

describe("what each request carries", () => {
  test("openai: sends store false and full items, never item_reference, in a tool round", async () => {
    const result = await turn(specOf("openai"), {
      messages: [{ role: "user", content: "call get-time {}" }],
    });
    expect(result.status).toBe("complete");
    const [first, second] = requestsOfTest();
    expect((first?.body as { store?: unknown }).store).toBe(false);
    expect((second?.body as { store?: unknown }).store).toBe(false);
    expect(messageRolesOf(second!)).toEqual(["user", "function_call", "function_call_output"]);
  });

  test("openai: a reasoning model also asks for the encrypted reasoning", async () => {
    await turn("openai:o4-mini");
    const [request] = requestsOfTest();
    expect(request?.body).toMatchObject({
      store: false,
      include: ["reasoning.encrypted_content"],
    });
  });

  test("openai: OPENAI_STORE=true keeps OpenAI's stored responses", async () => {
    await runTurn({
      model: resolveModel(specOf("openai"), { ...environment(), OPENAI_STORE: "true" }),
      messages: [{ role: "user", content: "Hello" }],
      tools: [],
      maxSteps: 1,
      maxToolCalls: 0,
      permissions: { web: false, write: false },
    });
    expect((requestsOfTest()[0]?.body as { store?: unknown }).store).toBe(true);
  });

  test("openai-compatible: asks for usage in the stream", async () => {
    await turn(specOf("openai-compatible"));
    expect(requestsOfTest()[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
  });

  test("anthropic: cache breakpoints on the last tool, the system prompt and the history", async () => {
    const history: RunTurnOptions["messages"] = [
      { role: "user", content: "First question, long enough to be worth caching." },
      { role: "assistant", content: [{ type: "text", text: "First answer." }] },
      { role: "user", content: "Second question." },
    ];
    const options = { system: "Be brief.", messages: history, stablePrefixLength: 2 };
    const first = await turn(specOf("anthropic"), options);
    expect(first.status).toBe("complete");
    const body = requestsOfTest()[0]?.body as {
      system: Array<{ cache_control?: unknown }>;
      tools: Array<{ cache_control?: unknown }>;
      messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
    };
    const marker = { type: "ephemeral" };
    expect(body.system.at(-1)?.cache_control).toEqual(marker);
    expect(body.tools.at(-1)?.cache_control).toEqual(marker);
    expect(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
    expect(body.messages.map((message) => message.content.at(-1)?.cache_control)).toEqual([
      undefined,
      marker,
      undefined,
    ]);
    // The same prefix again is read from the stand-in's cache.
    const second = await turn(specOf("anthropic"), options);
    expect(second.usage?.cachedInputTokens).toBeGreaterThan(0);
  });
});
