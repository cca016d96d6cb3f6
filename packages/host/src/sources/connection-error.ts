import {
  McpConnectionError,
  McpServerError,
  type McpConnectionErrorCode,
} from "@mcp-chat-host/connection";
import { SourceError, type SourceErrorCode } from "./source-error";

/**
 * The source code of each `@mcp-chat-host/connection` error code, one entry per code (the type
 * makes it exhaustive: a new connection code does not compile until it has one). The wire mapping
 * reads the same table for a connection error that reaches it unconverted, so one cause crosses
 * the socket as one wire code on every path (`errors/to-wire-error.test.ts` checks it).
 */
export const connectionSourceCodes: { readonly [Code in McpConnectionErrorCode]: SourceErrorCode } =
  {
    validation: "invalid_request",
    busy: "busy",
    closed: "closed",
    timeout: "timeout",
    desynchronized: "closed",
    server_exited: "closed",
    startup_failed: "unavailable",
    permission_denied: "refused",
    owner_mismatch: "refused",
    server_error: "protocol",
  };

/**
 * What a connection source throws for what its `@mcp-chat-host/connection` session threw: a
 * connection error becomes the {@link SourceError} of {@link connectionSourceCodes} (a server's
 * JSON-RPC error keeps its `rpcCode`), with the connection's message, which says what happened.
 * A `SourceError` passes through; anything else is not a connection failure the host knows, so it
 * is thrown on as it is and the wire mapping makes it `internal` (the log gets its detail, the
 * browser the generic sentence).
 *
 * @returns the error to throw; a `SourceError`'s `cause` is the original error.
 */
export function connectionFailure(error: unknown): unknown {
  if (error instanceof SourceError || !(error instanceof McpConnectionError)) return error;
  const rpcCode = error instanceof McpServerError ? error.rpcCode : null;
  return new SourceError(connectionSourceCodes[error.code], error.message, {
    cause: error,
    ...(rpcCode === null ? {} : { rpcCode }),
  });
}
