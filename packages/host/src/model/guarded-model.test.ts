// The guard around each model request, on its own: which failures are waited out and for how
// long, raw chunks feeding the stall watch, and no watch left running once a stream has ended.
import { describe, expect, test } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { guardModel, retryWait } from "./guarded-model";
import { createTestClock } from "../testing/turn-test-clock";
import { textStep } from "../testing/model-fixtures";

const NOW = Date.parse("2025-01-02T03:04:05.000Z");

function failed(status: number, headers: Record<string, string> = {}, data?: unknown) {
  return new APICallError({
    message: "failed",
    url: "https://api.example.com/v1",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    data,
  });
}

describe("retryWait", () => {
  const policy = { retryAfterCapMs: 30_000, maxRetries: 2, now: NOW };
  test.each([
    ["429 with retry-after", failed(429, { "retry-after": "7" }), 0, 7000],
    ["529 without a header, first retry", failed(529), 0, 1000],
    ["503 without a header, second retry", failed(503), 1, 2000],
    ["429 after two retries", failed(429), 2, undefined],
    ["429 above the cap", failed(429, { "retry-after": "31" }), 0, undefined],
    [
      "429 for a spent quota",
      failed(429, {}, { error: { code: "insufficient_quota" } }),
      0,
      undefined,
    ],
    ["500", failed(500), 0, undefined],
    ["401", failed(401), 0, undefined],
    ["an in-stream overloaded event", { type: "overloaded_error", message: "Overloaded" }, 0, 1000],
    ["a network error", new TypeError("fetch failed"), 0, undefined],
  ])("%s", (_label, error, attempt, wait) => {
    expect(retryWait(error, attempt, policy)).toBe(wait);
  });
});

describe("guardModel", () => {
  const guardOptions = (clock = createTestClock()) => ({
    stallTimeoutMs: 1000,
    retryAfterCapMs: 30_000,
    maxRetries: 2,
    clock: clock.clock,
    mayRetry: () => true,
  });

  async function readAll(stream: ReadableStream<LanguageModelV3StreamPart>) {
    const parts: LanguageModelV3StreamPart[] = [];
    const reader = stream.getReader();
    // Bounded by the stream, which the mock closes.
    for (;;) {
      const next = await reader.read();
      if (next.done) return parts;
      parts.push(next.value);
    }
  }

  test("asks for raw chunks (they feed the watch) and passes them on only when asked", async () => {
    const raw: LanguageModelV3StreamPart = { type: "raw", rawValue: { type: "ping" } };
    const inner = new MockLanguageModelV3({
      doStream: () =>
        Promise.resolve({ stream: convertArrayToReadableStream([raw, ...textStep("hi")]) }),
    });
    const clock = createTestClock();
    const model = guardModel(inner, guardOptions(clock));
    const plain = await model.doStream({ prompt: [], includeRawChunks: false });
    expect((await readAll(plain.stream)).some((part) => part.type === "raw")).toBe(false);
    expect(inner.doStreamCalls[0]?.includeRawChunks).toBe(true);
    const withRaw = await model.doStream({ prompt: [], includeRawChunks: true });
    expect((await readAll(withRaw.stream))[0]).toEqual(raw);
    // Once a stream has ended nothing watches it: running tools afterwards cannot stall the turn.
    expect(clock.timers).toEqual([]);
  });

  test("reports each request's usage and response headers", async () => {
    const inner = new MockLanguageModelV3({
      doStream: () =>
        Promise.resolve({
          stream: convertArrayToReadableStream(textStep("hi")),
          response: { headers: { "request-id": "req_1" } },
        }),
    });
    const usages: unknown[] = [];
    const headers: unknown[] = [];
    const model = guardModel(inner, {
      ...guardOptions(),
      onUsage: (usage) => usages.push(usage.outputTokens.total),
      onResponse: (value) => headers.push(value),
    });
    await readAll((await model.doStream({ prompt: [] })).stream);
    expect(usages).toEqual([1]);
    expect(headers).toEqual([{ "request-id": "req_1" }]);
  });

  test("keeps provider and model id", () => {
    const inner = new MockLanguageModelV3({ provider: "anthropic.messages", modelId: "claude" });
    const model = guardModel(inner, guardOptions());
    expect([model.provider, model.modelId]).toEqual(["anthropic.messages", "claude"]);
  });
});
