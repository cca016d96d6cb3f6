import type { IncomingHttpHeaders } from "node:http";
import type { Fault } from "../fault";
import type { AuthCheck, HttpAnswer } from "../provider-api";
import { wireIds } from "../wire-ids";

/**
 * @returns an Anthropic error answer: `{"type":"error","error":{"type","message"},"request_id"}`
 * with the `request-id` header the real API sends.
 */
function anthropicError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): HttpAnswer {
  const requestId = wireIds.anthropicRequest();
  return {
    status,
    headers: { "request-id": requestId, ...headers },
    body: { type: "error", error: { type, message }, request_id: requestId },
  };
}

/** @returns a 400 `invalid_request_error`. */
export function anthropicInvalidRequest(message: string): HttpAnswer {
  return anthropicError(400, "invalid_request_error", message);
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers["x-api-key"];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (apiKey !== undefined && apiKey.length > 0) return apiKey;
  // `authToken` in the AI SDK sends `Authorization: Bearer`, which the API takes for OAuth tokens.
  const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? "")?.[1]?.trim();
  return bearer === undefined || bearer.length === 0 ? undefined : bearer;
}

/** Checks `x-api-key` (or `Authorization: Bearer`) as the Anthropic API does. */
export function checkAnthropicAuth(headers: IncomingHttpHeaders, expectedKey: string): AuthCheck {
  const key = presentedKey(headers);
  if (key === undefined) {
    return {
      auth: "missing",
      refusal: anthropicError(401, "authentication_error", "x-api-key header is required"),
    };
  }
  if (key !== expectedKey) {
    return {
      auth: "invalid",
      refusal: anthropicError(401, "authentication_error", "invalid x-api-key"),
    };
  }
  return { auth: "valid" };
}

/** @returns the real Anthropic answer for an HTTP error fault. */
export function anthropicFaultAnswer(fault: Extract<Fault, { kind: "http" }>): HttpAnswer {
  const retryAfter =
    fault.retryAfterSeconds === undefined
      ? fault.status === 429
        ? { "retry-after": "1" }
        : {}
      : { "retry-after": String(fault.retryAfterSeconds) };
  if (fault.reason === "out-of-credit") {
    return anthropicError(
      fault.status,
      "invalid_request_error",
      "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
    );
  }
  switch (fault.status) {
    case 401:
      return anthropicError(401, "authentication_error", "invalid x-api-key");
    case 429:
      return anthropicError(
        429,
        "rate_limit_error",
        "This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.",
        {
          ...retryAfter,
          "anthropic-ratelimit-input-tokens-limit": "50000",
          "anthropic-ratelimit-input-tokens-remaining": "0",
        },
      );
    case 500:
      return anthropicError(500, "api_error", "Internal server error", retryAfter);
    case 529:
      return anthropicError(529, "overloaded_error", "Overloaded", retryAfter);
    default:
      return anthropicError(
        fault.status,
        "api_error",
        `Stand-in error with status ${fault.status}.`,
        retryAfter,
      );
  }
}

/** @returns the refusal of a body that is not JSON (wording approximate). */
export function anthropicUnparsableBody(): HttpAnswer {
  return anthropicInvalidRequest("There was an error parsing the body of your request as JSON.");
}

/** @returns the data of Anthropic's in-stream `error` event. */
export function anthropicStreamErrorData(): string {
  return JSON.stringify({
    type: "error",
    error: { type: "overloaded_error", message: "Overloaded" },
  });
}
