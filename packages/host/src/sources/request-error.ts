import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { SourceError, type SourceErrorCode } from "./source-error";

/**
 * The source code of each of the SDK's own failure codes, one entry per code (the type makes it
 * exhaustive: an SDK upgrade with a new code does not compile until it has one). The causes the
 * connection package also has map alike (`connectionSourceCodes` in `connection-error.ts`): a
 * deadline is `timeout`, an ended connection `closed`, an answer the client cannot use `protocol`,
 * a server that cannot be reached or refuses the client `unavailable`.
 */
const sdkSourceCodes: { readonly [Code in SdkErrorCode]: SourceErrorCode } = {
  [SdkErrorCode.NotConnected]: "closed",
  [SdkErrorCode.AlreadyConnected]: "unavailable",
  [SdkErrorCode.NotInitialized]: "closed",
  [SdkErrorCode.CapabilityNotSupported]: "protocol",
  [SdkErrorCode.RequestTimeout]: "timeout",
  [SdkErrorCode.ConnectionClosed]: "closed",
  [SdkErrorCode.SendFailed]: "unavailable",
  [SdkErrorCode.InvalidResult]: "protocol",
  [SdkErrorCode.UnsupportedResultType]: "protocol",
  [SdkErrorCode.InputRequiredRoundsExceeded]: "protocol",
  [SdkErrorCode.ListPaginationExceeded]: "protocol",
  [SdkErrorCode.MethodNotSupportedByProtocolVersion]: "protocol",
  [SdkErrorCode.EraNegotiationFailed]: "unavailable",
  [SdkErrorCode.ClientHttpNotImplemented]: "unavailable",
  [SdkErrorCode.ClientHttpAuthentication]: "unavailable",
  [SdkErrorCode.ClientHttpForbidden]: "unavailable",
  [SdkErrorCode.ClientHttpUnexpectedContent]: "protocol",
  [SdkErrorCode.ClientHttpFailedToOpenStream]: "unavailable",
  [SdkErrorCode.ClientHttpFailedToTerminateSession]: "closed",
};

/**
 * Turns an error thrown by an MCP client into a {@link SourceError}: the SDK's `SdkError` by
 * {@link sdkSourceCodes}, a server's JSON-RPC error (`ProtocolError`) as `protocol` with its
 * `rpcCode`. While connecting, any other failure (a refused socket, a name that does not
 * resolve) is `unavailable`, with a sentence that does not repeat its raw text; after, anything
 * else is not a failure the host knows, so it is thrown on as it is and the wire mapping makes it
 * `internal` (the log gets its detail). A `SourceError` passes through unchanged.
 *
 * @param error - what was thrown.
 * @param key - the source's key, for the message.
 * @param phase - `connect` while the connection was being made, `request` after.
 * @returns the error to throw; a `SourceError`'s `cause` is the original error.
 */
export function requestFailure(error: unknown, key: string, phase: "connect" | "request"): unknown {
  if (error instanceof SourceError) return error;
  if (error instanceof ProtocolError && phase === "request") {
    return new SourceError("protocol", error.message, { cause: error, rpcCode: error.code });
  }
  if (error instanceof SdkError || error instanceof ProtocolError) {
    const code = error instanceof SdkError ? sdkSourceCodes[error.code] : "protocol";
    return new SourceError(code, sdkFailureMessage(code, key, error.message, phase), {
      cause: error,
    });
  }
  if (phase === "connect") {
    return new SourceError(
      "unavailable",
      `Couldn't reach ${key}; check that its server is running and reachable, then try again.`,
      { cause: error },
    );
  }
  return error;
}

function sdkFailureMessage(
  code: SourceErrorCode,
  key: string,
  message: string,
  phase: "connect" | "request",
): string {
  if (code === "timeout")
    return `${key} did not answer in time; try again, or give the source a longer timeout.`;
  if (code === "closed")
    return `The connection to ${key} is closed (${message}); open the source again.`;
  return phase === "connect" ? `Couldn't reach ${key}: ${message}` : message;
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

/**
 * The error of a prompt asked of a server that offers none (no `prompts` capability).
 *
 * @param key - the source's key, for the message.
 */
export function noPromptsError(key: string): SourceError {
  return new SourceError("unavailable", `${key} offers no prompts; choose another one.`);
}
