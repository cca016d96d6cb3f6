// What the AI SDK 6 adapters emit for each fault the stand-in plays. These expectations are the
// facts the host's model layer is built on: when an AI SDK upgrade changes one, this test says
// which. The README's table is this file in prose.
import { streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collect,
  modelFor,
  partsOf,
  type CollectedRun,
  type ProviderName,
} from "../test/provider-models";
import { startProviderStandIn, type Fault, type ProviderStandIn } from "./index";

/** One run, reduced to the facts the table records. */
interface Observed {
  /** The `error` part's error: its `name`, or `object` for a plain object. */
  readonly error: string | undefined;
  readonly statusCode: number | undefined;
  /** Its `isRetryable` (what streamText's retries look at). */
  readonly retryable: boolean | undefined;
  /** The name of what iterating `fullStream` threw. */
  readonly thrown: string | undefined;
  /** The `finish` part's finish reason as unified/raw. */
  readonly finish: string | undefined;
  /** Whether text arrived before the failure. */
  readonly text: boolean;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "object";
}

function observe(run: CollectedRun): Observed {
  const [errorPart] = partsOf(run, "error");
  const [finish] = partsOf(run, "finish");
  const error = (errorPart?.error ?? run.thrown) as
    { statusCode?: number; isRetryable?: boolean } | undefined;
  return {
    error: errorPart === undefined ? undefined : errorName(errorPart.error),
    statusCode: error?.statusCode,
    retryable: error?.isRetryable,
    thrown: run.thrown === undefined ? undefined : errorName(run.thrown),
    finish: finish === undefined ? undefined : `${finish.finishReason}/${finish.rawFinishReason}`,
    text: partsOf(run, "text-delta").length > 0,
  };
}

let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn();
});
afterEach(async () => {
  await standIn.close();
});

async function run(provider: ProviderName, fault: Fault, maxRetries = 0): Promise<CollectedRun> {
  standIn.injectFault(fault, { times: maxRetries + 1 });
  standIn.respondWith(() => ({ text: "The quick brown fox jumps over the lazy dog." }));
  const result = streamText({
    model: modelFor(provider, standIn),
    prompt: "Say something.",
    maxRetries,
    onError: () => {},
  });
  return collect(result.fullStream);
}

/** @returns an observation, every fact not given being absent. */
function seen(facts: Partial<Observed>): Observed {
  return {
    error: undefined,
    statusCode: undefined,
    retryable: undefined,
    thrown: undefined,
    finish: undefined,
    text: false,
    ...facts,
  };
}
const apiCall = (statusCode: number, retryable = true): Observed =>
  seen({ error: "AI_APICallError", statusCode, retryable });
const everywhere = (observed: Observed): Record<ProviderName, Observed> => ({
  responses: observed,
  chat: observed,
  compatible: observed,
  anthropic: observed,
});
const thrown = (text: boolean): Observed =>
  seen({ thrown: "AI_APICallError", statusCode: 200, retryable: true, text });
const streamed = (facts: Partial<Observed>): Observed => seen({ text: true, ...facts });

const table: readonly [string, Fault, Partial<Record<ProviderName, Observed>>][] = [
  ["HTTP 401", { kind: "http", status: 401 }, everywhere(apiCall(401, false))],
  ["HTTP 429", { kind: "http", status: 429, retryAfterSeconds: 0 }, everywhere(apiCall(429))],
  ["HTTP 500", { kind: "http", status: 500 }, everywhere(apiCall(500))],
  ["HTTP 529", { kind: "http", status: 529 }, everywhere(apiCall(529))],
  ["socket cut mid-stream", { kind: "cut" }, everywhere(thrown(true))],
  [
    "socket cut after the headers",
    { kind: "cut", afterEvents: 0 },
    {
      responses: apiCall(200),
      chat: apiCall(200),
      compatible: thrown(false),
      anthropic: apiCall(200),
    },
  ],
  [
    "clean end without the finish events",
    { kind: "no-finish" },
    {
      responses: streamed({ finish: "other/undefined" }),
      chat: streamed({ finish: "other/undefined" }),
      compatible: streamed({ error: "AI_InvalidResponseDataError", finish: "error/undefined" }),
      anthropic: streamed({ finish: "other/undefined" }),
    },
  ],
  [
    "malformed chunk mid-stream",
    { kind: "malformed" },
    {
      responses: streamed({ error: "AI_JSONParseError", finish: "error/undefined" }),
      chat: streamed({ error: "AI_JSONParseError", finish: "stop/stop" }),
      compatible: streamed({ error: "AI_JSONParseError", finish: "stop/stop" }),
      anthropic: streamed({ error: "AI_JSONParseError", finish: "stop/end_turn" }),
    },
  ],
  [
    "in-stream error event mid-stream",
    { kind: "stream-error" },
    {
      responses: streamed({
        error: "object",
        statusCode: 500,
        retryable: true,
        finish: "error/error",
      }),
      chat: streamed({ error: "object", finish: "error/undefined" }),
      compatible: streamed({ error: "object", finish: "error/undefined" }),
      anthropic: streamed({ error: "object", finish: "error/undefined" }),
    },
  ],
  [
    "in-stream error event before any output",
    { kind: "stream-error", afterEvents: 0 },
    {
      responses: apiCall(500),
      chat: apiCall(500),
      compatible: seen({ error: "object", finish: "error/undefined" }),
      anthropic: apiCall(529),
    },
  ],
  [
    "Responses response.failed mid-stream",
    { kind: "stream-error", variant: "response.failed" },
    {
      responses: streamed({
        error: "object",
        statusCode: 500,
        retryable: true,
        finish: "error/error",
      }),
    },
  ],
];

describe("fault × provider: what the AI SDK 6 emits (maxRetries 0)", () => {
  const cases = table.flatMap(([label, fault, byProvider]) =>
    Object.entries(byProvider).map(
      ([provider, expected]) => [label, provider as ProviderName, fault, expected] as const,
    ),
  );
  it.each(cases)("%s through %s", async (_label, provider, fault, expected) => {
    expect(observe(await run(provider, fault))).toEqual(expected);
  });
});

describe("retries (streamText maxRetries)", () => {
  it.each(["responses", "chat", "compatible", "anthropic"] as const)(
    "%s: a 429 with retry-after 0 is retried maxRetries times, then a RetryError",
    async (provider) => {
      const observed = await run(provider, { kind: "http", status: 429, retryAfterSeconds: 0 }, 2);
      const [error] = partsOf(observed, "error");
      expect(error?.error).toMatchObject({
        name: "AI_RetryError",
        reason: "maxRetriesExceeded",
        lastError: { statusCode: 429 },
      });
      expect(standIn.requests).toHaveLength(3);
    },
  );

  it.each([
    ["anthropic", 2],
    ["compatible", 1],
  ] as const)(
    "%s: an in-stream error before any output (maxRetries 1): %i request(s)",
    async (provider, requests) => {
      // Anthropic (and both OpenAI adapters) throw it from doStream as a retryable APICallError,
      // so it is retried after the default 2 s backoff: the 200 answer carries no retry-after.
      await run(provider, { kind: "stream-error", afterEvents: 0 }, 1);
      expect(standIn.requests).toHaveLength(requests);
    },
  );

  it.each(["responses", "chat", "compatible", "anthropic"] as const)(
    "%s: a cut mid-stream is not retried: fullStream throws",
    async (provider) => {
      const observed = await run(provider, { kind: "cut" }, 2);
      expect(observed.thrown).toMatchObject({ name: "AI_APICallError", statusCode: 200 });
      expect(standIn.requests).toHaveLength(1);
    },
  );
});

describe("a stall, then the caller aborts", () => {
  it.each(["responses", "chat", "compatible", "anthropic"] as const)(
    "%s: an abort part ends the stream and the provider connection is closed",
    async (provider) => {
      standIn.injectFault({ kind: "stall" });
      standIn.respondWith(() => ({ text: "The quick brown fox jumps over the lazy dog." }));
      const controller = new AbortController();
      const result = streamText({
        model: modelFor(provider, standIn),
        prompt: "Say something.",
        maxRetries: 0,
        abortSignal: controller.signal,
        onError: () => {},
      });
      const types: string[] = [];
      for await (const part of result.fullStream) {
        types.push(part.type);
        if (types.filter((type) => type === "text-delta").length === 2) controller.abort();
      }
      const [request] = standIn.requests;
      await request?.settled;

      expect(types.at(-1)).toBe("abort");
      expect(types).not.toContain("error");
      expect(types).not.toContain("finish");
      expect(request?.closedByClient).toBe(true);
    },
  );
});

describe("an in-stream error mid-stream and the open text part", () => {
  it.each([
    ["responses", false],
    ["chat", true],
    ["compatible", true],
    ["anthropic", false],
  ] as const)("%s: text-end arrives before the finish: %s", async (provider, closed) => {
    const observed = await run(provider, { kind: "stream-error" });
    expect(partsOf(observed, "text-end").length > 0).toBe(closed);
  });
});
