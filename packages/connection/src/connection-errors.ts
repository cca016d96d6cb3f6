// Local errors of MCP client sessions and connections. Each class carries a stable string `code`
// callers switch on; the message says what to do next.

/** Stable codes of {@link McpConnectionError}s, for callers that map each one (the host's wire mapping). */
export const mcpConnectionErrorCodes = [
  "validation",
  "busy",
  "closed",
  "timeout",
  "desynchronized",
  "server_exited",
  "permission_denied",
  "owner_mismatch",
  "startup_failed",
  "server_error",
] as const;

/** One of {@link mcpConnectionErrorCodes}. */
export type McpConnectionErrorCode = (typeof mcpConnectionErrorCodes)[number];

/**
 * Why a session or connection ended.
 * - `startup_failed`: a startup step failed (spawn, initialize, tool discovery, checks).
 * - `timeout`: a request ran past its deadline.
 * - `cancelled`: `cancel()` was called.
 * - `closed`: `close()` was called.
 * - `server_exited`: the server process exited (or a remote server ended the session).
 * - `crashed`: the transport failed in a way that is not an exit (a stream or network error).
 * - `desynchronized`: a reply did not belong to any request in flight.
 */
export type McpCloseReason =
  | "startup_failed"
  | "timeout"
  | "cancelled"
  | "closed"
  | "server_exited"
  | "crashed"
  | "desynchronized";

/** Base class of every error this package raises about a session or connection. */
export class McpConnectionError extends Error {
  /** Stable code callers switch on. */
  readonly code: McpConnectionErrorCode;

  /**
   * @param code - the stable code.
   * @param message - what happened and what to do next.
   * @param options - standard error options (`cause`).
   */
  constructor(code: McpConnectionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpConnectionError";
    this.code = code;
  }
}

/** An argument was invalid; nothing was started or sent. */
export class McpValidationError extends McpConnectionError {
  /** @param message - which argument is wrong and what it must be. */
  constructor(message: string) {
    super("validation", message);
    this.name = "McpValidationError";
  }
}

/** A request was refused because the connection already has one in flight. */
export class McpBusyError extends McpConnectionError {
  constructor() {
    super("busy", "The MCP connection already has an active request.");
    this.name = "McpBusyError";
  }
}

/**
 * A request was refused because the session or connection had already ended: "The MCP
 * connection is closed (<reason>); create a new connection.", or, when the failure is known (a
 * failed startup), "The MCP connection is closed (<reason>): <why>".
 */
export class McpClosedError extends McpConnectionError {
  /** Why it ended. */
  readonly reason: McpCloseReason;

  /**
   * @param reason - why the connection ended.
   * @param failure - the error that ended it, when there was one (a startup failure): its
   *   message becomes the end of this one, and it becomes the `cause`.
   */
  constructor(reason: McpCloseReason, failure?: Error) {
    super(
      "closed",
      failure === undefined
        ? `The MCP connection is closed (${reason}); create a new connection.`
        : `The MCP connection is closed (${reason}): ${failure.message}`,
      failure === undefined ? undefined : { cause: failure },
    );
    this.name = "McpClosedError";
    this.reason = reason;
  }
}

/**
 * A request in flight was ended because the session ended under it (`cancel()`, `close()`, a
 * transport failure). Subclasses cover timeouts, lost synchronization and server exits.
 */
export class McpConnectionEndedError extends McpConnectionError {
  /** Why the session ended. */
  readonly reason: McpCloseReason;

  /**
   * @param reason - why the session ended.
   * @param options - `message` overrides the default "MCP connection ended: <reason>"; `code`
   *   defaults to `closed`; `cause` is the underlying failure.
   */
  constructor(
    reason: McpCloseReason,
    options: { message?: string; code?: McpConnectionErrorCode; cause?: unknown } = {},
  ) {
    super(
      options.code ?? "closed",
      options.message ?? `MCP connection ended: ${reason}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "McpConnectionEndedError";
    this.reason = reason;
  }
}

/** A request ran past its deadline; the session was closed (there is no silent reconnect). */
export class McpTimeoutError extends McpConnectionEndedError {
  constructor() {
    super("timeout", { code: "timeout" });
    this.name = "McpTimeoutError";
  }
}

/**
 * The server answered a request that was not in flight (a wrong or repeated id). Its replies can
 * no longer be matched to requests, so the session was closed.
 */
export class McpDesynchronizedError extends McpConnectionEndedError {
  /** The configured server name. */
  readonly server: string;

  /** @param server - the configured server name. */
  constructor(server: string) {
    super("desynchronized", {
      code: "desynchronized",
      message: `MCP server "${server}" lost request/response synchronization. The connection was closed; its server session state is lost. Create a new connection to continue.`,
    });
    this.name = "McpDesynchronizedError";
    this.server = server;
  }
}

/** The server process exited (or a remote server ended the session) while the session was open. */
export class McpServerExitedError extends McpConnectionEndedError {
  /** The configured server name. */
  readonly server: string;
  /** The exit code, when the process exited normally. */
  readonly exitCode: number | null;
  /** The signal that ended the process, when one did. */
  readonly signal: NodeJS.Signals | null;

  /**
   * @param server - the configured server name.
   * @param exit - how the process ended (both null for a remote server).
   */
  constructor(
    server: string,
    exit: { exitCode: number | null; signal: NodeJS.Signals | null } = {
      exitCode: null,
      signal: null,
    },
  ) {
    const how =
      exit.signal !== null
        ? ` (signal ${exit.signal})`
        : exit.exitCode !== null
          ? ` (exit code ${exit.exitCode})`
          : "";
    super("server_exited", {
      code: "server_exited",
      message: `MCP server "${server}" exited${how}; its session state is lost. Create a new connection to continue.`,
    });
    this.name = "McpServerExitedError";
    this.server = server;
    this.exitCode = exit.exitCode;
    this.signal = exit.signal;
  }
}

/** The item is not in the connection's fixed allowlist; nothing was sent. */
export class McpPermissionDeniedError extends McpConnectionError {
  /** Which allowlist refused it. */
  readonly kind: "tools" | "resources" | "prompts";
  /** The refused tool name, resource URI or prompt name. */
  readonly item: string;

  /**
   * @param kind - which allowlist refused it.
   * @param item - the refused item.
   */
  constructor(kind: "tools" | "resources" | "prompts", item: string) {
    super("permission_denied", `The MCP ${kind} item is not in the connection's host allowlist.`);
    this.name = "McpPermissionDeniedError";
    this.kind = kind;
    this.item = item;
  }
}

/** The caller's owner record differs from the connection's; nothing was sent. */
export class McpOwnerMismatchError extends McpConnectionError {
  constructor() {
    super(
      "owner_mismatch",
      "The MCP connection belongs to a different owner; create a new connection.",
    );
    this.name = "McpOwnerMismatchError";
  }
}

/** A startup step failed; the session or connection ended with reason `startup_failed`. */
export class McpStartupError extends McpConnectionError {
  /**
   * @param message - which step failed and what to check.
   * @param options - standard error options (`cause`).
   */
  constructor(message: string, options?: ErrorOptions) {
    super("startup_failed", message, options);
    this.name = "McpStartupError";
  }
}

/**
 * The server answered with an MCP error (or an invalid result). The session stays open and the
 * connection goes back to idle.
 */
export class McpServerError extends McpConnectionError {
  /** The JSON-RPC error code the server sent, or null for an invalid result. */
  readonly rpcCode: number | null;
  /** The error's `data`, if the server sent any. */
  readonly data: unknown;

  /**
   * @param server - the configured server name.
   * @param detail - the server's code, message and data.
   */
  constructor(server: string, detail: { rpcCode: number | null; message: string; data?: unknown }) {
    super("server_error", `MCP server "${server}" answered with an error: ${detail.message}`);
    this.name = "McpServerError";
    this.rpcCode = detail.rpcCode;
    this.data = detail.data;
  }
}
