import { z } from "zod";

/**
 * Stable codes of errors that cross the socket or the postMessage channel.
 * The browser switches on these; the `message` is for the person who reads it.
 */
export const wireErrorCodes = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "too_large",
  "rate_limited",
  "busy",
  "refused",
  "unavailable",
  "timeout",
  "closed",
  "conflict",
  "storage",
  "internal",
] as const;

/** One of {@link wireErrorCodes}. */
export type WireErrorCode = (typeof wireErrorCodes)[number];

/**
 * JSON-RPC error codes a card's page sees when the host does not answer its request: a method the
 * host does not pass on, a card that is not running, a tool the page may not call, or a failure.
 */
export const pageRpcCodes = {
  /** The host doesn't pass on that method. */
  methodNotFound: -32601,
  /** The card is not running (unknown instance). */
  invalidRequest: -32600,
  /** The tool is not callable by the app, or the gate refused the call. */
  invalidParams: -32602,
  /** Transport or other failure. */
  internalError: -32603,
} as const;

/** Schema of {@link WireError}. */
export const wireErrorSchema = z.object({
  code: z.enum(wireErrorCodes),
  message: z.string(),
  retryable: z.boolean(),
  /** For card requests: the JSON-RPC error code the page's bridge answers with. */
  rpcCode: z.number().int().optional(),
});

/** The one error shape that reaches the browser. */
export type WireError = z.infer<typeof wireErrorSchema>;

/**
 * Builds a {@link WireError}.
 *
 * @param code - the stable code.
 * @param message - a sentence for the person, saying what to do next where there is something to do.
 * @param options - `retryable` (default false) and, for card requests, the page's JSON-RPC code.
 * @returns the error object, ready to send.
 */
export function wireError(
  code: WireErrorCode,
  message: string,
  options: { retryable?: boolean; rpcCode?: number } = {},
): WireError {
  const error: WireError = { code, message, retryable: options.retryable ?? false };
  if (options.rpcCode !== undefined) error.rpcCode = options.rpcCode;
  return error;
}

/** True when `value` has the {@link WireError} shape. */
export function isWireError(value: unknown): value is WireError {
  return wireErrorSchema.safeParse(value).success;
}
