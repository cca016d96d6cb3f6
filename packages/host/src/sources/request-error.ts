import { errorMessage } from "@mcp-chat-host/protocol";
import { SourceError } from "./source-error";

/**
 * Turns an error thrown by an MCP client (the SDK's `SdkError` / `ProtocolError`, a transport
 * error, a network error) into a {@link SourceError} with a stable code. A `SourceError` passes
 * through unchanged.
 *
 * @param error - what was thrown.
 * @param key - the source's key, for the message.
 * @param phase - `connect` while the connection was being made, `request` after.
 * @returns the error to throw; its `cause` is the original error.
 */
export function requestErrorToSourceError(
  error: unknown,
  key: string,
  phase: "connect" | "request",
): SourceError {
  if (error instanceof SourceError) return error;
  const message = errorMessage(error);
  // The SDK's own failures carry string codes (SdkErrorCode); a server's JSON-RPC errors, numbers.
  const code =
    typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === "REQUEST_TIMEOUT") {
    return new SourceError(
      "timeout",
      `${key} did not answer in time; try again, or give the source a longer timeout.`,
      { cause: error },
    );
  }
  if (code === "CONNECTION_CLOSED" || code === "NOT_CONNECTED") {
    return new SourceError(
      "closed",
      `The connection to ${key} is closed (${message}); open the source again.`,
      {
        cause: error,
      },
    );
  }
  if (phase === "request" && typeof code === "number") {
    return new SourceError("protocol", message, { cause: error, rpcCode: code });
  }
  if (phase === "connect") {
    return new SourceError("unavailable", `Couldn't reach ${key}: ${message}`, { cause: error });
  }
  return new SourceError("unavailable", message, { cause: error });
}

/**
 * The error of a request the caller cancelled.
 *
 * @param key - the source's key, for the message.
 * @param cause - what the request failed with.
 */
export function cancelledSourceError(key: string, cause: unknown): SourceError {
  return new SourceError("cancelled", `The request to ${key} was cancelled.`, { cause });
}

/**
 * The error of a request to a source whose connection is closed.
 *
 * @param key - the source's key, for the message.
 * @param cause - what the request failed with, if it was sent.
 */
export function closedSourceError(key: string, cause?: unknown): SourceError {
  return new SourceError("closed", `The connection to ${key} is closed; open the source again.`, {
    cause,
  });
}
