// The error every configuration problem is reported with, and the message openings callers match.

/**
 * A configuration that cannot be used. `message` says what is wrong and how to fix it, and never
 * contains a header value (they often hold secrets).
 */
export class McpConfigError extends Error {
  /** Stable code callers switch on. */
  readonly code = "config";
  /** The server entry concerned, when there is one. */
  readonly server: string | undefined;

  /**
   * @param message - what is wrong and what to do next.
   * @param server - the entry concerned, if any.
   */
  constructor(message: string, server?: string) {
    super(message);
    this.name = "McpConfigError";
    this.server = server;
  }
}

/** Opening of messages about a configuration that could not be read or parsed. */
export const processingFailed = "Configuration processing failed";
/** Opening of messages about a server that cannot be selected as exactly one entry. */
export const notUniquelyNamed = "Select one exact, uniquely named MCP server configuration.";
