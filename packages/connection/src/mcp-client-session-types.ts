// The options, states and close listeners of an McpClientSession.
import type {
  AuthProvider,
  FetchLike,
  ClientCapabilities,
  ElicitRequestParams,
  ElicitResult,
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
  /**
   * The fetch a remote server's requests go through (default: the global one): the host gives a
   * person's connector one pinned to the address its name resolved to when it was checked.
   */
  fetch?: FetchLike;
  /**
   * Answers the server's questions to the person (`elicitation/create`, and the 2026-07-28
   * `inputRequired` rounds, which the SDK answers through the same handler). With it, the client
   * declares the `elicitation` capability (form and URL modes); without it, none is declared, so
   * a server does not ask.
   */
  onElicitation?: McpElicitationHandler;
}

/** What an {@link McpElicitationHandler} is told besides the question. */
export interface McpElicitationContext {
  /** The configured server name. */
  server: string;
  /** Aborted when the server withdraws its question or the session ends. */
  signal: AbortSignal;
  /**
   * The requests in flight on this session when the question came that carry a `caller` tag,
   * oldest first: the question arose during one of them (the wire does not say which).
   */
  callers: readonly McpElicitationCaller[];
}

/** One request in flight when a server asked: its `caller` tag, and when it ended. */
export interface McpElicitationCaller {
  /** The request's {@link McpRequestOptions.caller}. */
  caller: unknown;
  /** Aborted once the request settled (answered, failed or cancelled). */
  settled: AbortSignal;
}

/**
 * Answers one question of a server: `{ action: "accept", content }` (form mode),
 * `{ action: "accept" }` (URL mode: the page was opened), `decline` or `cancel`.
 */
export type McpElicitationHandler = (
  request: ElicitRequestParams,
  context: McpElicitationContext,
) => Promise<ElicitResult>;

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
  /**
   * Who makes the request: handed to `onElicitation` (in `callers`) while the request is in
   * flight, so a question can be put to the person whose call led to it.
   */
  caller?: unknown;
}

/** `starting` until `initialize` is answered; `busy` while any request is in flight. */
export type McpSessionState = "starting" | "idle" | "busy" | "closed";

/** Called once when a session ends, with the reason and the error pending requests got. */
export type McpSessionCloseListener = (reason: McpCloseReason, error: McpConnectionError) => void;
