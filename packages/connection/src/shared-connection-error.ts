// The error of a shared tool handle that can no longer run, or of a registry that was shut down.

/** Stable codes of {@link McpSharedConnectionError}. */
export type McpSharedConnectionErrorCode = "stale" | "closed" | "unavailable";

/** A shared tool that can no longer run, or a registry that was shut down. */
export class McpSharedConnectionError extends Error {
  /** Stable code callers switch on. */
  readonly code: McpSharedConnectionErrorCode;
  /** The server concerned, when there is one. */
  readonly server: string | undefined;

  /**
   * @param code - the stable code.
   * @param message - what happened and what to do next.
   * @param server - the server concerned.
   */
  constructor(code: McpSharedConnectionErrorCode, message: string, server?: string) {
    super(message);
    this.name = "McpSharedConnectionError";
    this.code = code;
    this.server = server;
  }
}
