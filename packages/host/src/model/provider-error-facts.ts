// Reads what a failed model call tells about itself, whatever shape it came in: an AI SDK
// `APICallError` (an HTTP error, or a stream error the adapter raised before any output), a
// `RetryError`, or the plain object of an in-stream error event (Anthropic `{type, message}`,
// OpenAI `{message, type, code, statusCode}`). Only safe pieces come out: never a body, a URL
// with a query, or a key.
import { APICallError, RetryError } from "ai";

/** The facts of a failed call that decide how the failure is told and whether to retry. */
export interface ProviderErrorFacts {
  /** The HTTP status, or the status an in-stream error type stands for. */
  status?: number;
  /** True when `status` was read from an in-stream error's type, not from an HTTP answer. */
  statusInferred?: boolean;
  /** The provider's error types and codes, lower case (`rate_limit_error`, `insufficient_quota`). */
  codes: string[];
  /** The provider's own message, cleaned by {@link safeDetail}. */
  detail?: string;
  /** Response headers of the failed call, lower-case names. */
  headers: Record<string, string>;
  /** The provider's request id, for the log. */
  requestId?: string;
  /** A transport failure: the host could not connect, or the connection broke mid-response. */
  transport?: "connect" | "lost";
  /** The origin (`https://host:port`) the call went to, when known; no path, query or user. */
  origin?: string;
  /** Whether the body was there but could not be parsed. */
  malformed: boolean;
}

/**
 * Error types and codes of in-stream events, by the status they stand for: Anthropic's types,
 * and the OpenAI codes a Chat Completions stream error carries.
 */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_api_key: 401,
  rate_limit_exceeded: 429,
  server_error: 500,
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** Error codes of sockets that closed or never opened (Node and undici). */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/**
 * Reads the facts of an error a model call ended with. Never throws.
 *
 * @returns the facts; `codes` is empty and `malformed` false when nothing could be read.
 */
export function readProviderError(error: unknown): ProviderErrorFacts {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const facts: ProviderErrorFacts = { codes: [], headers: {}, malformed: false };
  if (APICallError.isInstance(cause)) {
    readApiCallError(cause, facts);
  } else if (cause instanceof Error) {
    if (networkCode(cause) !== undefined || cause.message === "terminated") {
      facts.transport = "lost";
    }
  } else if (isRecord(cause)) {
    readErrorObject(cause, facts);
  } else if (typeof cause === "string") {
    const detail = safeDetail(cause);
    if (detail !== undefined) facts.detail = detail;
  }
  if (facts.status === undefined) {
    const fromCode = facts.codes.map((code) => STATUS_OF_TYPE[code]).find(Boolean);
    if (fromCode !== undefined) {
      facts.status = fromCode;
      facts.statusInferred = true;
    }
  }
  const requestId = facts.headers["x-request-id"] ?? facts.headers["request-id"];
  if (requestId !== undefined) facts.requestId = requestId;
  return facts;
}

function readApiCallError(error: APICallError, facts: ProviderErrorFacts): void {
  for (const [name, value] of Object.entries(error.responseHeaders ?? {})) {
    facts.headers[name.toLowerCase()] = value;
  }
  const origin = originOf(error.url);
  if (origin !== undefined) facts.origin = origin;
  if (isRecord(error.data)) readErrorObject(error.data, facts);
  // "Failed to process successful response" carries the 200 of the stream it was reading.
  if (error.statusCode !== undefined && error.statusCode >= 400) {
    facts.status = error.statusCode;
    // The adapters put the provider's message (from the error body) in `message`.
    const detail = safeDetail(error.message);
    if (detail !== undefined && error.message !== "Failed to process error response") {
      facts.detail = detail;
    }
    return;
  }
  delete facts.detail;
  if (error.message.startsWith("Cannot connect to API")) facts.transport = "connect";
  else if (isParseError(error.cause)) facts.malformed = true;
  else facts.transport = "lost";
}

/** An error body or event: `{ error: { type, code, message } }` or `{ type, code, message }`. */
function readErrorObject(value: Record<string, unknown>, facts: ProviderErrorFacts): void {
  const inner = isRecord(value["error"]) ? value["error"] : value;
  for (const candidate of [inner["type"], inner["code"], value["code"], value["type"]]) {
    if (typeof candidate !== "string" || candidate === "error") continue;
    const code = candidate.toLowerCase();
    if (!facts.codes.includes(code)) facts.codes.push(code);
  }
  const status = value["statusCode"];
  // An error event inside a stream that was answered with HTTP 200: the adapter's status is a
  // stand-in for the event's type, not an HTTP answer.
  if (typeof status === "number" && status >= 400 && status <= 599) {
    facts.status = status;
    facts.statusInferred = true;
  }
  const detail = safeDetail(inner["message"]);
  if (detail !== undefined) facts.detail = detail;
}

function isParseError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AI_JSONParseError" || error.name === "AI_TypeValidationError")
  );
}

function networkCode(error: Error): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * How long the provider asked to wait, from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds, or an HTTP date).
 *
 * @returns the wait in ms (0 or more), or undefined when the headers say nothing usable.
 */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const milliseconds = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const text = headers["retry-after"]?.trim();
  if (text === undefined || text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number.parseFloat(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The most characters of a provider's message that reach the person. */
const DETAIL_LIMIT = 200;

/**
 * Cleans a provider's message for the person: one line, keys and bearer tokens replaced by
 * "[key]", long opaque tokens by "[redacted]", URLs cut to their origin, at most 200 characters.
 *
 * @returns the text, or undefined for anything that is not a useful sentence (empty, JSON).
 */
function safeDetail(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  let detail = text.replace(/\s+/g, " ").trim();
  // A message that is (or turns into) JSON is a dump, not a sentence.
  const json = detail.search(/[{[]\s*"/);
  if (json !== -1) detail = detail.slice(0, json).trim();
  detail = scrubSecrets(detail).replace(/[\s.:;,]+$/, "");
  if (detail === "") return undefined;
  return detail.length > DETAIL_LIMIT ? `${detail.slice(0, DETAIL_LIMIT - 1).trimEnd()}…` : detail;
}

/**
 * Replaces what looks like a secret in a text: `sk-...` style keys, bearer tokens, long opaque
 * tokens, and URLs (cut to their origin, so no query key or user survives).
 *
 * @returns the text without them.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(/\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,;:!?)]/gi, (url) => originOf(url) ?? "[address]")
    .replace(/\bBearer\s+\S+/gi, "Bearer [key]")
    .replace(/\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{3,}/gi, "[key]")
    .replace(/[A-Za-z0-9_+/=-]{32,}/g, "[redacted]");
}

function originOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
