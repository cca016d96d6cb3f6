import { errorMessage } from "@mcp-chat-host/protocol";
import { SourceError } from "./source-error";

/** Codes of `@mcp-chat-host/connection` errors, mapped to source error codes. */
const CONNECTION_CODES: Record<string, SourceError["code"]> = {
  closed: "closed",
  timeout: "timeout",
  server_exited: "closed",
  desynchronized: "closed",
  startup_failed: "unavailable",
  busy: "unavailable",
  validation: "invalid_options",
  permission_denied: "protocol",
  owner_mismatch: "protocol",
};

/**
 * Turns an error of a `@mcp-chat-host/connection` session into a {@link SourceError}: a server's
 * JSON-RPC error becomes `protocol` (with its `rpcCode`), the connection's own codes are mapped,
 * anything else is `unavailable`. A `SourceError` passes through unchanged.
 *
 * @returns the error to throw; its `cause` is the original error.
 */
export function connectionErrorToSourceError(error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  const message = errorMessage(error);
  const code =
    typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === "server_error") {
    const rpcCode = (error as { rpcCode?: unknown }).rpcCode;
    return new SourceError("protocol", message, {
      cause: error,
      ...(typeof rpcCode === "number" ? { rpcCode } : {}),
    });
  }
  const mapped = typeof code === "string" ? CONNECTION_CODES[code] : undefined;
  return new SourceError(mapped ?? "unavailable", message, { cause: error });
}
