// What a session's requests fail with: an MCP error answer (the session stays open), the end of
// the session for a given reason, or the transport failing under a request (which ends it).
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { errorMessage } from "@mcp-chat-host/protocol";
import {
  McpConnectionEndedError,
  McpDesynchronizedError,
  McpServerError,
  McpServerExitedError,
  McpTimeoutError,
  type McpCloseReason,
} from "./connection-errors";
import type { ProcessExit } from "./stdio-process-transport";

/**
 * The error pending (and later) requests get once a session ended.
 *
 * @param server - the configured server name.
 * @param reason - why the session ended.
 * @param exit - how the stdio server exited, if it has.
 * @returns the matching error.
 */
export function sessionEndedError(
  server: string,
  reason: McpCloseReason,
  exit: ProcessExit | undefined,
): McpConnectionEndedError {
  switch (reason) {
    case "timeout":
      return new McpTimeoutError();
    case "desynchronized":
      return new McpDesynchronizedError(server);
    case "server_exited":
      return new McpServerExitedError(server, exit);
    default:
      return new McpConnectionEndedError(reason);
  }
}

/**
 * An MCP error answer (or a result the SDK found invalid) as McpServerError.
 *
 * @param server - the configured server name.
 * @param error - what the SDK threw.
 * @returns the error, or undefined when `error` is not an answer (the transport failed).
 */
export function serverAnswerError(server: string, error: unknown): McpServerError | undefined {
  if (error instanceof ProtocolError) {
    return new McpServerError(server, {
      rpcCode: error.code,
      message: error.message,
      data: error.data,
    });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
    return new McpServerError(server, { rpcCode: null, message: error.message });
  }
  return undefined;
}

/**
 * What a transport failure under a request means: the server exited, else the connection crashed.
 *
 * @param server - the configured server name.
 * @param error - what the SDK threw.
 * @param exit - how the stdio server exited, if it has.
 * @returns the error that ends the session.
 */
export function transportFailure(
  server: string,
  error: unknown,
  exit: ProcessExit | undefined,
): McpConnectionEndedError {
  return exit !== undefined
    ? new McpServerExitedError(server, exit)
    : new McpConnectionEndedError("crashed", {
        message: `MCP connection ended: crashed (${errorMessage(error)})`,
        cause: error,
      });
}
