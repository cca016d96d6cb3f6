// The options, states and close listeners of an McpClientSession.
import type {
  AuthProvider,
  ClientCapabilities,
  Implementation,
  Progress,
} from "@modelcontextprotocol/client";
import type { McpCloseReason, McpConnectionError } from "./connection-errors";

/** Options of {@link McpClientSession.open}. Times are in seconds. */
export interface McpClientSessionOptions {
  /** Longest wait for the server to start and answer `initialize`. Default 60. */
  startupTimeout?: number;
  /** Default deadline of each request. Default: the entry's `timeout`, else 60. */
  timeout?: number;
  /** How this client names itself to the server. */
  clientInfo?: Implementation;
  /** More client capabilities; the MCP Apps extension is always declared. */
  capabilities?: ClientCapabilities;
  /** Receives the stdio server's stderr, chunk by chunk. */
  onStderr?: (text: string) => void;
  /** Receives non-fatal transport and protocol errors (a malformed line, a failed notification). */
  onError?: (error: Error) => void;
  /** Working directory of a stdio server; the host's by default. */
  cwd?: string;
  /** Aborting it during startup stops the startup (rejects with McpStartupError, kills the server). */
  signal?: AbortSignal;
  /**
   * A remote server's bearer token and its 401 handling, for a server the person signs in to
   * with OAuth (the host's per-person provider). Static `headers` of the entry are sent as well.
   */
  authProvider?: AuthProvider;
}

/** Options of one request. `timeout` is in seconds. */
export interface McpRequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with the signal's reason; the session stays open. */
  signal?: AbortSignal;
  /** This request's deadline; past it the whole session closes with reason `timeout`. */
  timeout?: number;
  /** Receives the server's progress notifications for this request. */
  onProgress?: (progress: Progress) => void;
  /** Restart the deadline at each progress notification. Off by default. */
  resetTimeoutOnProgress?: boolean;
}

/** `starting` until `initialize` is answered; `busy` while any request is in flight. */
export type McpSessionState = "starting" | "idle" | "busy" | "closed";

/** Called once when a session ends, with the reason and the error pending requests got. */
export type McpSessionCloseListener = (reason: McpCloseReason, error: McpConnectionError) => void;
