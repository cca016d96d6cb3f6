import type { IncomingHttpHeaders } from "node:http";
import type { Fault } from "../fault";
import type { AuthCheck, HttpAnswer } from "../provider-api";
import { wireIds } from "../wire-ids";

/**
 * @returns an OpenAI error answer: `{"error":{"message","type","param","code"}}` with the
 * `x-request-id` header the real API sends.
 */
export function openaiError(
  status: number,
  error: { message: string; type: string; param?: string | null; code?: string | null },
  headers: Record<string, string> = {},
): HttpAnswer {
  return {
    status,
    headers: { "x-request-id": wireIds.openaiRequest(), ...headers },
    body: {
      error: {
        message: error.message,
        type: error.type,
        param: error.param ?? null,
        code: error.code ?? null,
      },
    },
  };
}

/** @returns a 400 `invalid_request_error`. */
export function openaiInvalidRequest(
  message: string,
  param: string | null,
  code: string | null = null,
): HttpAnswer {
  return openaiError(400, { message, type: "invalid_request_error", param, code });
}

/** @returns the key masked as the real API prints it: a few first characters, `*`, the last 4. */
function maskKey(key: string): string {
  if (key.length < 12) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}`;
}

const missingKeyMessage =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.";

function incorrectKey(key: string): HttpAnswer {
  return openaiError(401, {
    message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    type: "invalid_request_error",
    code: "invalid_api_key",
  });
}

function bearerKey(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer (.*)$/i.exec(headers.authorization ?? "");
  const key = match?.[1]?.trim();
  return key === undefined || key.length === 0 ? undefined : key;
}

/** Checks `Authorization: Bearer <key>` as the OpenAI API does. */
export function checkOpenaiAuth(headers: IncomingHttpHeaders, expectedKey: string): AuthCheck {
  const key = bearerKey(headers);
  if (key === undefined) {
    return {
      auth: "missing",
      refusal: openaiError(401, { message: missingKeyMessage, type: "invalid_request_error" }),
    };
  }
  if (key !== expectedKey) return { auth: "invalid", refusal: incorrectKey(key) };
  return { auth: "valid" };
}

/** @returns the real OpenAI answer for an HTTP error fault. */
export function openaiFaultAnswer(
  fault: Extract<Fault, { kind: "http" }>,
  model: string,
): HttpAnswer {
  const retryAfter =
    fault.retryAfterSeconds === undefined
      ? fault.status === 429
        ? { "retry-after": "1" }
        : {}
      : { "retry-after": String(fault.retryAfterSeconds) };
  if (fault.reason === "out-of-credit") {
    return openaiError(fault.status, {
      message:
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
      type: "insufficient_quota",
      code: "insufficient_quota",
    });
  }
  switch (fault.status) {
    case 401:
      return incorrectKey("sk-stand-in-revoked-key-0000");
    case 429: {
      const seconds = retryAfter["retry-after"] ?? "1";
      return openaiError(
        429,
        {
          message: `Rate limit reached for ${model} in organization org-standin on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in ${seconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          type: "tokens",
          code: "rate_limit_exceeded",
        },
        {
          ...retryAfter,
          "x-ratelimit-limit-tokens": "30000",
          "x-ratelimit-remaining-tokens": "0",
          "x-ratelimit-reset-tokens": `${seconds}s`,
        },
      );
    }
    case 500:
      return openaiError(
        500,
        {
          message: "The server had an error while processing your request. Sorry about that!",
          type: "server_error",
        },
        retryAfter,
      );
    case 503:
      return openaiError(
        503,
        {
          message: "The server is overloaded or not ready yet.",
          type: "server_error",
        },
        retryAfter,
      );
    default:
      return openaiError(
        fault.status,
        { message: `Stand-in error with status ${fault.status}.`, type: "server_error" },
        retryAfter,
      );
  }
}

/** @returns the refusal of a body that is not JSON. */
export function openaiUnparsableBody(): HttpAnswer {
  return openaiInvalidRequest(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    null,
  );
}

/** @returns the in-stream error object Chat Completions and Responses send mid-stream. */
export function openaiStreamErrorObject(): { message: string; type: string; code: string } {
  return {
    message:
      "The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if you keep seeing this error.",
    type: "server_error",
    code: "server_error",
  };
}
