// The sentences a person reads when a turn fails, one row per failure shape the AI SDK and its
// provider adapters really produce (HTTP errors, in-stream error events, parse errors, sockets).
import { describe, expect, test } from "vitest";
import {
  APICallError,
  InvalidResponseDataError,
  JSONParseError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from "ai";
import { ModelCutOffError, ModelStallError, describeFailure, duration } from "./model-failure";
import type { TurnFailure } from "./turn-events";

const NOW = Date.parse("2025-01-02T03:04:05.000Z");

function httpError(options: {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  data?: unknown;
}): APICallError {
  return new APICallError({
    message: options.message ?? "error",
    url: "https://api.example.com/v1/messages",
    requestBodyValues: { messages: ["the conversation"] },
    statusCode: options.status,
    responseHeaders: options.headers ?? {},
    responseBody: JSON.stringify(options.data ?? {}),
    data: options.data,
  });
}

function socketError(): TypeError {
  const socket = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new TypeError("terminated", { cause: socket });
}

const ANTHROPIC = "anthropic.messages";
const OPENAI = "openai.responses";
const COMPATIBLE = "openai-compatible.chat";

type Row = [
  label: string,
  provider: string,
  error: unknown,
  expected: Pick<TurnFailure, "kind" | "message" | "retryable"> & Partial<TurnFailure>,
];

const rows: Row[] = [
  [
    "401 from OpenAI",
    OPENAI,
    httpError({
      status: 401,
      message: "Incorrect API key provided: sk-abc***wxyz.",
      headers: { "x-request-id": "req_401" },
      data: {
        error: {
          message: "Incorrect API key",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      },
    }),
    {
      kind: "auth",
      message:
        "OpenAI did not accept the API key (HTTP 401). Check OPENAI_API_KEY in the server's environment.",
      retryable: false,
      status: 401,
      requestId: "req_401",
    },
  ],
  [
    "403 from Anthropic",
    ANTHROPIC,
    httpError({
      status: 403,
      data: { type: "error", error: { type: "permission_error", message: "no" } },
    }),
    {
      kind: "auth",
      message:
        "Anthropic refused access with this API key (HTTP 403). Check that ANTHROPIC_API_KEY may use this model.",
      retryable: false,
    },
  ],
  [
    "401 from an OpenAI-compatible server",
    COMPATIBLE,
    httpError({ status: 401 }),
    {
      kind: "auth",
      message:
        "The model server did not accept the API key (HTTP 401). Check OPENAI_COMPATIBLE_API_KEY in the server's environment.",
      retryable: false,
    },
  ],
  [
    "429 with retry-after seconds",
    ANTHROPIC,
    httpError({ status: 429, headers: { "retry-after": "40", "request-id": "req_a" } }),
    {
      kind: "rate-limited",
      message: "Anthropic is rate limiting this host. Try again in 40 s.",
      retryable: true,
      retryAt: NOW + 40_000,
      requestId: "req_a",
    },
  ],
  [
    "429 with retry-after-ms",
    OPENAI,
    httpError({ status: 429, headers: { "retry-after-ms": "1500", "retry-after": "9" } }),
    {
      kind: "rate-limited",
      message: "OpenAI is rate limiting this host. Try again in 2 s.",
      retryable: true,
      retryAt: NOW + 1500,
    },
  ],
  [
    "429 with a long retry-after",
    OPENAI,
    httpError({ status: 429, headers: { "retry-after": "600" } }),
    {
      kind: "rate-limited",
      message: "OpenAI is rate limiting this host. Try again in 10 minutes.",
      retryable: true,
      retryAt: NOW + 600_000,
    },
  ],
  [
    "429 with an HTTP date",
    OPENAI,
    httpError({ status: 429, headers: { "retry-after": new Date(NOW + 180_000).toUTCString() } }),
    {
      kind: "rate-limited",
      message: "OpenAI is rate limiting this host. Try again in 3 minutes.",
      retryable: true,
      retryAt: NOW + 180_000,
    },
  ],
  [
    "429 without retry-after",
    OPENAI,
    httpError({ status: 429 }),
    {
      kind: "rate-limited",
      message: "OpenAI is rate limiting this host. Try again in a minute.",
      retryable: true,
    },
  ],
  [
    "429 for an exhausted quota",
    OPENAI,
    httpError({
      status: 429,
      data: {
        error: {
          message: "You exceeded your current quota",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      },
    }),
    {
      kind: "auth",
      message:
        "OpenAI says the account is out of credit or over its quota. Add credit, or set another key in OPENAI_API_KEY.",
      retryable: false,
    },
  ],
  [
    "400 for an Anthropic account out of credit (the real body)",
    ANTHROPIC,
    httpError({
      status: 400,
      message:
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      headers: { "request-id": "req_011Cred" },
      data: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message:
            "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
        },
        request_id: "req_011Cred",
      },
    }),
    {
      kind: "auth",
      message:
        "Anthropic says the account is out of credit or over its quota. Add credit, or set another key in ANTHROPIC_API_KEY.",
      retryable: false,
      status: 400,
      requestId: "req_011Cred",
    },
  ],
  [
    "529 overloaded",
    ANTHROPIC,
    httpError({
      status: 529,
      data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    }),
    {
      kind: "overloaded",
      message: "Anthropic is overloaded right now. Try again in a minute.",
      retryable: true,
      status: 529,
    },
  ],
  [
    "503 with retry-after",
    OPENAI,
    httpError({ status: 503, headers: { "retry-after": "5" } }),
    {
      kind: "overloaded",
      message: "OpenAI is overloaded right now. Try again in 5 s.",
      retryable: true,
    },
  ],
  [
    "500",
    OPENAI,
    httpError({ status: 500, message: "The server had an error processing your request." }),
    {
      kind: "provider-error",
      message: "OpenAI had an internal error (HTTP 500). Try again in a moment.",
      retryable: true,
    },
  ],
  [
    "400 refusal, with the provider's reason",
    ANTHROPIC,
    httpError({
      status: 400,
      message: "prompt is too long: 215000 tokens > 200000 maximum",
      data: {
        type: "error",
        error: { type: "invalid_request_error", message: "prompt is too long" },
      },
    }),
    {
      kind: "refused",
      message:
        "Anthropic refused the request (HTTP 400): prompt is too long: 215000 tokens > 200000 maximum. Sending it again unchanged will not help.",
      retryable: false,
    },
  ],
  [
    "400 whose reason holds JSON, a key and a URL",
    OPENAI,
    httpError({
      status: 400,
      message:
        'Key sk-proj-abcdefgh12345 cannot call https://api.example.com/v1?key=secret here: {"param": "tools"}',
    }),
    {
      kind: "refused",
      message:
        "OpenAI refused the request (HTTP 400): Key [key] cannot call https://api.example.com here. Sending it again unchanged will not help.",
      retryable: false,
    },
  ],
  [
    "404",
    OPENAI,
    httpError({ status: 404, message: "The model `gpt-9` does not exist" }),
    {
      kind: "refused",
      message:
        "OpenAI does not know this model (HTTP 404). Check the model id in MODEL and the base URL.",
      retryable: false,
    },
  ],
  [
    "Anthropic in-stream overloaded event",
    ANTHROPIC,
    { type: "overloaded_error", message: "Overloaded" },
    {
      kind: "overloaded",
      message: "Anthropic is overloaded right now. Try again in a minute.",
      retryable: true,
      status: 529,
    },
  ],
  [
    "Anthropic in-stream api_error event",
    ANTHROPIC,
    { type: "api_error", message: "Internal server error" },
    {
      kind: "provider-error",
      message: "Anthropic had an internal error. Try again in a moment.",
      retryable: true,
    },
  ],
  [
    "OpenAI in-stream error event (as the adapter passes it on)",
    OPENAI,
    {
      message: "The server had an error",
      type: "error",
      code: "server_error",
      statusCode: 500,
      isRetryable: true,
      data: { type: "error", code: "server_error", message: "The server had an error" },
    },
    {
      kind: "provider-error",
      message: "OpenAI had an internal error. Try again in a moment.",
      retryable: true,
    },
  ],
  [
    "an in-stream event of unknown shape",
    OPENAI,
    { something: { nested: true } },
    {
      kind: "provider-error",
      message:
        "The model failed with an unexpected error. Try again; if it keeps happening, check the server's log.",
      retryable: true,
    },
  ],
  [
    "a malformed chunk",
    OPENAI,
    new JSONParseError({ text: '{"secret": "sk-live-123456"', cause: new SyntaxError("bad") }),
    {
      kind: "malformed",
      message: "OpenAI sent a response this host could not read; try again.",
      retryable: true,
    },
  ],
  [
    "a chunk of the wrong shape",
    ANTHROPIC,
    new TypeValidationError({ value: { type: "weird" }, cause: new Error("invalid") }),
    {
      kind: "malformed",
      message: "Anthropic sent a response this host could not read; try again.",
      retryable: true,
    },
  ],
  [
    "a socket cut while streaming (the SDK's wrapper)",
    ANTHROPIC,
    new APICallError({
      message: "Failed to process successful response",
      url: "https://api.anthropic.com/v1/messages",
      requestBodyValues: {},
      statusCode: 200,
      cause: socketError(),
    }),
    {
      kind: "network",
      message: "The connection to Anthropic broke before the reply was finished; try again.",
      retryable: true,
    },
  ],
  [
    "a socket cut while streaming (the bare fetch error)",
    OPENAI,
    socketError(),
    {
      kind: "network",
      message: "The connection to OpenAI broke before the reply was finished; try again.",
      retryable: true,
    },
  ],
  [
    "no connection",
    COMPATIBLE,
    new APICallError({
      message: "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434",
      url: "http://user:password@127.0.0.1:11434/v1/chat/completions?api_key=secret",
      requestBodyValues: {},
      isRetryable: true,
    }),
    {
      kind: "network",
      message:
        "The host could not connect to the model server. Check the network and the base URL, then try again.",
      retryable: true,
    },
  ],
  [
    "a stall",
    OPENAI,
    new ModelStallError(60_000),
    {
      kind: "stalled",
      message: "The model stopped answering for 60 s; try again.",
      retryable: true,
    },
  ],
  [
    "a stream without its finish event",
    OPENAI,
    new ModelCutOffError(),
    {
      kind: "cut-off",
      message: "OpenAI ended the reply before it was finished; try again.",
      retryable: true,
    },
  ],
  [
    "a stream with no output and no finish (Anthropic)",
    ANTHROPIC,
    new NoOutputGeneratedError({ message: "No output generated." }),
    {
      kind: "cut-off",
      message: "Anthropic ended the reply before it was finished; try again.",
      retryable: true,
    },
  ],
  [
    "a chat stream without a finish reason (OpenAI-compatible)",
    COMPATIBLE,
    new InvalidResponseDataError({
      data: undefined,
      message: "Response stream ended without a finish reason.",
    }),
    {
      kind: "cut-off",
      message: "The model server ended the reply before it was finished; try again.",
      retryable: true,
    },
  ],
  [
    "the SDK's retry error around a 429",
    OPENAI,
    new RetryError({
      message: "Failed after 3 attempts.",
      reason: "maxRetriesExceeded",
      errors: [httpError({ status: 429, headers: { "retry-after": "2" } })],
    }),
    {
      kind: "rate-limited",
      message: "OpenAI is rate limiting this host. Try again in 2 s.",
      retryable: true,
    },
  ],
  [
    "an unknown provider",
    "mystery.chat",
    httpError({ status: 401 }),
    {
      kind: "auth",
      message:
        "The model provider did not accept the API key (HTTP 401). Check the provider's API key in the server's environment.",
      retryable: false,
    },
  ],
];

describe("describeFailure", () => {
  test.each(rows)("%s", (_label, provider, error, expected) => {
    const failure = describeFailure(error, { provider, now: NOW });
    expect(failure).toMatchObject({ ...expected, provider });
    // Never raw JSON, a key fragment or a URL with a query or user.
    expect(failure.message).not.toMatch(/[{}]|sk-|\?|@|password|secret/);
  });

  test("the turn's last request id is the fallback for the log", () => {
    const failure = describeFailure(new ModelStallError(1000), {
      provider: OPENAI,
      now: NOW,
      requestId: "req_last",
    });
    expect(failure.requestId).toBe("req_last");
    expect(failure.status).toBeUndefined();
  });
});

describe("duration", () => {
  test.each([
    [400, "1 s"],
    [60_000, "60 s"],
    [119_000, "119 s"],
    [120_000, "2 minutes"],
    [7_200_000, "2 hours"],
  ])("%d ms reads %s", (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});
