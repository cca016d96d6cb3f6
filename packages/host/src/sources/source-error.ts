/**
 * Stable codes of the errors a source raises. The host maps them to wire errors
 * (`unavailable`, `timeout`, `closed`, ...) and to the sentences a card shows when it can't load.
 */
export type SourceErrorCode =
  /** Options given to `McpApp`, `mcpClient()` or a source were not valid. */
  | "invalid_options"
  /** A tool's `_meta.ui.resourceUri` is not a `ui://` URI. */
  | "invalid_view_uri"
  /** The `ui://` resource could not be used as a view (mime type, content count, metadata). */
  | "invalid_view"
  /** The server could not be reached, or failed to answer. */
  | "unavailable"
  /** The server answered a request with a JSON-RPC error. */
  | "protocol"
  /** A request's arguments were not valid; nothing was sent. */
  | "invalid_request"
  /** The connection's allowlist, or the connection's owner, refused the request; nothing was sent. */
  | "refused"
  /** The connection was answering another request and takes one at a time. */
  | "busy"
  /** The server did not answer in time. */
  | "timeout"
  /** The request was cancelled by the caller. */
  | "cancelled"
  /** The source was closed, by the host or because the server went away. */
  | "closed";

/**
 * A local error raised by a source or by the helpers around sources.
 * `code` is stable; `message` says what went wrong and what to do next.
 */
export class SourceError extends Error {
  /** The stable code of this error. */
  readonly code: SourceErrorCode;
  /** For `protocol` errors: the JSON-RPC error code the server answered with. */
  readonly rpcCode: number | undefined;

  /**
   * @param code - the stable code.
   * @param message - a sentence for the reader, saying what to do next where there is something to do.
   * @param options - the underlying error, and for `protocol` errors the server's JSON-RPC code.
   */
  constructor(
    code: SourceErrorCode,
    message: string,
    options: { cause?: unknown; rpcCode?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SourceError";
    this.code = code;
    this.rpcCode = options.rpcCode;
  }
}

/** True when `value` is a {@link SourceError}. */
export function isSourceError(value: unknown): value is SourceError {
  return value instanceof SourceError;
}
