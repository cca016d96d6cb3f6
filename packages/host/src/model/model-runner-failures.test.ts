// Failures through whole turns: retries of busy providers, stalls, streams cut short, in-stream
// error events. The model is the AI SDK's mock; time is a test clock, so nothing really waits.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { runTurn } from "./model-runner";
import type { RunTurnOptions } from "./model-runner";
import { createTestClock } from "../testing/turn-test-clock";
import type { TestClock } from "../testing/turn-test-clock";
import {
  recordEvents,
  startTestToolServer,
  textStep,
  toolCallStep,
} from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { TurnEvent } from "./turn-events";

let server: TestToolServer;
beforeAll(async () => {
  server = await startTestToolServer();
});
afterAll(async () => {
  await server.close();
});

function busy(status: number, headers: Record<string, string> = {}): APICallError {
  return new APICallError({
    message: status === 429 ? "Rate limit reached" : "Overloaded",
    url: "https://api.example.com/v1/messages",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    isRetryable: true,
  });
}

/** A model answering each request with the next entry: an error (rejected) or stream parts. */
function scriptedModel(
  ...answers: Array<Error | LanguageModelV3StreamPart[]>
): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    provider: "anthropic.messages",
    doStream: () => {
      const answer = answers[next];
      next += 1;
      if (answer === undefined) return Promise.reject(new Error("no more answers"));
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({ stream: convertArrayToReadableStream(answer) });
    },
  });
}

/** A stream that sends `parts`, then nothing, until the request is aborted. */
function hangingStream(
  parts: LanguageModelV3StreamPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
  });
}

function turnOptions(
  model: MockLanguageModelV3,
  clock: TestClock,
  overrides: Partial<RunTurnOptions> = {},
): RunTurnOptions {
  return {
    model,
    messages: [{ role: "user", content: "hello" }],
    tools: server.tools,
    maxSteps: 5,
    maxToolCalls: 5,
    permissions: { web: false, write: false },
    clock: clock.clock,
    ...overrides,
  };
}

describe("retries of a busy provider", () => {
  test("a 429 is retried after its retry-after, and the turn shows nothing of it", async () => {
    const clock = createTestClock();
    const model = scriptedModel(busy(429, { "retry-after": "3" }), textStep("Hi."));
    const events: TurnEvent[] = [];
    const result = await runTurn(turnOptions(model, clock, { events: (e) => events.push(e) }));
    expect(result).toMatchObject({ status: "complete", text: "Hi." });
    expect(clock.sleeps.map((sleep) => sleep.ms)).toEqual([3000]);
    expect(model.doStreamCalls.length).toBe(2);
    expect(events.map((event) => event.type)).toEqual(["text-delta", "finished"]);
  });

  test("without retry-after the waits are 1 s, then 2 s", async () => {
    const clock = createTestClock();
    const model = scriptedModel(busy(529), busy(503), textStep("Hi."));
    const result = await runTurn(turnOptions(model, clock));
    expect(result.status).toBe("complete");
    expect(clock.sleeps.map((sleep) => sleep.ms)).toEqual([1000, 2000]);
  });

  test("after two retries the turn fails, saying when to try again", async () => {
    const clock = createTestClock();
    const model = scriptedModel(busy(529), busy(529), busy(529, { "retry-after": "20" }));
    const result = await runTurn(turnOptions(model, clock));
    expect(model.doStreamCalls.length).toBe(3);
    expect(result.failure).toMatchObject({
      kind: "overloaded",
      message: "Anthropic is overloaded right now. Try again in 20 s.",
      retryable: true,
      status: 529,
      retryAt: clock.clock.now() + 20_000,
    });
  });

  test("a retry-after above the cap fails at once with the time to come back", async () => {
    const clock = createTestClock();
    const model = scriptedModel(busy(429, { "retry-after": "120" }), textStep("never"));
    const result = await runTurn(turnOptions(model, clock, { retryAfterCapMs: 30_000 }));
    expect(clock.sleeps).toEqual([]);
    expect(model.doStreamCalls.length).toBe(1);
    expect(result.failure).toMatchObject({
      kind: "rate-limited",
      message: "Anthropic is rate limiting this host. Try again in 2 minutes.",
      retryAt: clock.clock.now() + 120_000,
    });
  });

  test("once the turn has shown something, a busy provider fails the turn without a retry", async () => {
    const clock = createTestClock();
    const model = scriptedModel(toolCallStep(["c1", "get-time", {}]), busy(429));
    const result = await runTurn(turnOptions(model, clock));
    expect(clock.sleeps).toEqual([]);
    expect(model.doStreamCalls.length).toBe(2);
    expect(result.status).toBe("error");
    expect(result.failure?.kind).toBe("rate-limited");
    // The finished first step is kept.
    expect(result.responseMessages.map((message) => message.role)).toEqual(["assistant", "tool"]);
  });

  test("a refusal (400) is not retried", async () => {
    const clock = createTestClock();
    const refusal = new APICallError({
      message: "messages: at least one message is required",
      url: "https://api.example.com/v1/messages",
      requestBodyValues: {},
      statusCode: 400,
    });
    const result = await runTurn(turnOptions(scriptedModel(refusal), clock));
    expect(clock.sleeps).toEqual([]);
    expect(result.failure).toMatchObject({ kind: "refused", retryable: false, status: 400 });
  });

  test("a stop during the wait ends the turn as stopped, without another request", async () => {
    const clock = createTestClock({ holdSleeps: true });
    const model = scriptedModel(busy(429, { "retry-after": "10" }), textStep("never"));
    const controller = new AbortController();
    const turn = runTurn(turnOptions(model, clock, { signal: controller.signal }));
    const sleep = await clock.nextSleep();
    expect(sleep.ms).toBe(10_000);
    controller.abort();
    const result = await turn;
    expect(result.status).toBe("stopped");
    expect(model.doStreamCalls.length).toBe(1);
  });
});

describe("stalls", () => {
  test("no first chunk within the timeout: the request is closed and the turn stalls", async () => {
    const clock = createTestClock();
    let seen: LanguageModelV3CallOptions | undefined;
    const model = new MockLanguageModelV3({
      doStream: (options) => {
        seen = options;
        // Never answers, as a provider that accepted the connection and went quiet.
        return new Promise(() => {});
      },
    });
    const turn = runTurn(turnOptions(model, clock, { stallTimeoutMs: 60_000 }));
    const timer = await clock.nextTimer();
    expect(timer.ms).toBe(60_000);
    timer.fire();
    const result = await turn;
    expect(result.status).toBe("error");
    expect(result.failure).toMatchObject({
      kind: "stalled",
      message: "The model stopped answering for 60 s; try again.",
      retryable: true,
    });
    expect(seen?.abortSignal?.aborted).toBe(true);
  });

  test("a stream that goes quiet mid-reply: what was said is kept, the request is closed", async () => {
    const clock = createTestClock();
    let seen: AbortSignal | undefined;
    const model = new MockLanguageModelV3({
      doStream: (options) => {
        seen = options.abortSignal;
        const parts: LanguageModelV3StreamPart[] = [
          { type: "text-start", id: "text" },
          { type: "text-delta", id: "text", delta: "Hel" },
        ];
        return Promise.resolve({ stream: hangingStream(parts, options.abortSignal) });
      },
    });
    const { listener, waitFor } = recordEvents();
    const turn = runTurn(turnOptions(model, clock, { events: listener, stallTimeoutMs: 5000 }));
    await waitFor("text-delta");
    const timer = await clock.nextTimer();
    expect(timer.ms).toBe(5000);
    timer.fire();
    const result = await turn;
    expect(result).toMatchObject({ status: "error", text: "Hel" });
    expect(result.failure?.message).toBe("The model stopped answering for 5 s; try again.");
    expect(result.responseMessages).toEqual([
      { role: "assistant", content: [{ type: "text", text: "Hel" }] },
    ]);
    expect(seen?.aborted).toBe(true);
  });
});

describe("streams that end badly", () => {
  test("a stream without its finish event fails as cut off, keeping the text", async () => {
    const clock = createTestClock();
    const model = scriptedModel([
      { type: "text-start", id: "text" },
      { type: "text-delta", id: "text", delta: "Half an ans" },
      // What the OpenAI and Anthropic adapters report when the provider's finish never came.
      {
        type: "finish",
        finishReason: { unified: "other", raw: undefined },
        usage: {
          inputTokens: {
            total: undefined,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
      },
    ]);
    const result = await runTurn(turnOptions(model, clock));
    expect(result).toMatchObject({ status: "error", text: "Half an ans" });
    expect(result.failure).toMatchObject({
      kind: "cut-off",
      message: "Anthropic ended the reply before it was finished; try again.",
    });
  });

  test("an in-stream error event is read, never shown as [object Object]", async () => {
    const clock = createTestClock();
    const model = scriptedModel([
      { type: "text-start", id: "text" },
      { type: "text-delta", id: "text", delta: "Hel" },
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      {
        type: "finish",
        finishReason: { unified: "error", raw: undefined },
        usage: {
          inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ]);
    const events: TurnEvent[] = [];
    const result = await runTurn(turnOptions(model, clock, { events: (e) => events.push(e) }));
    expect(result.failure).toMatchObject({
      kind: "overloaded",
      message: "Anthropic is overloaded right now. Try again in a minute.",
    });
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 1 });
    expect(events.at(-1)).toMatchObject({ type: "error", failure: result.failure });
    expect(JSON.stringify(result.failure)).not.toContain("[object Object]");
  });
});
