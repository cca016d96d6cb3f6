// One live MCP client session to one configured server: the transport (a stdio child leading
// its own process group and session, or Streamable HTTP with an SSE fallback), the SDK Client, deadlines,
// reply-id checks, exit detection and shutdown. Several requests may be in flight at once; the
// one-request-at-a-time contract of McpConnection is built on top of this.
// The wire is SessionLink's (`session-link.ts`); the request methods, the startup deadline and the
// mapping of failures to errors are in `session-requests.ts`, `startup-deadline.ts` and
// `session-failures.ts`.
import type {
  ElicitRequestParams,
  Implementation,
  RequestMethod,
  ResultTypeMap,
  ServerCapabilities,
} from "@modelcontextprotocol/client";
import type { McpServerConfig } from "./config/config-types";
import {
  McpClosedError,
  McpDesynchronizedError,
  McpServerExitedError,
  McpStartupError,
  type McpCloseReason,
  type McpConnectionEndedError,
  type McpConnectionError,
} from "./connection-errors";
import { InFlightRequests } from "./in-flight-requests";
import type {
  McpClientSessionOptions,
  McpRequestOptions,
  McpSessionCloseListener,
  McpSessionState,
} from "./mcp-client-session-types";
import { serverAnswerError, sessionEndedError, transportFailure } from "./session-failures";
import { McpSessionRequests } from "./session-requests";
import { SessionLink, type McpTransportKind } from "./session-link";
import { StartupDeadline, startupCalledOff } from "./startup-deadline";

export { mcpAppsExtensionId, mcpAppsMimeType, type McpTransportKind } from "./session-link";

const defaultSeconds = 60;
// setTimeout's largest delay; the SDK's own per-request timer is parked there so ours decides.
const largestDelayMs = 2_147_483_647;
const gracefulExitLimitMs = 2000;

/**
 * A started MCP client session. Create it with {@link McpClientSession.open}; end it with
 * {@link McpClientSession.close} (graceful when idle) or {@link McpClientSession.cancel}.
 * Once ended, every method rejects with {@link McpClosedError}.
 */
export class McpClientSession extends McpSessionRequests {
  /** The configured server name. */
  readonly server: string;

  private readonly options: McpClientSessionOptions;
  private readonly defaultTimeoutMs: number;
  private readonly link: SessionLink;
  private readonly requests = new InFlightRequests(() => void this.terminate("timeout"));
  private readonly closeListeners = new Set<McpSessionCloseListener>();
  private starting = true;
  private closeReason: McpCloseReason | null = null;
  private teardown: Promise<void> | undefined;
  private startup: StartupDeadline | undefined;
  // Aborted when the session ends, so a question still waiting for the person is withdrawn.
  private readonly ended = new AbortController();

  private constructor(entry: McpServerConfig, options: McpClientSessionOptions) {
    super();
    this.server = entry.name;
    this.options = options;
    const entryTimeout = entry.kind === "remote" ? entry.timeout : undefined;
    this.defaultTimeoutMs = toMilliseconds(options.timeout ?? entryTimeout ?? defaultSeconds);
    const { onElicitation } = options;
    const linkOptions = {
      ...options,
      onElicitation:
        onElicitation === undefined
          ? undefined
          : (request: ElicitRequestParams, signal: AbortSignal) =>
              onElicitation(request, {
                server: this.server,
                signal: AbortSignal.any([signal, this.ended.signal]),
                callers: this.requests
                  .callers()
                  .map(({ caller, settled }) => ({ caller, settled: settled.signal })),
              }),
    };
    this.link = new SessionLink(entry, linkOptions, {
      onStrayResponse: () => this.handleStrayResponse(),
      onTransportClose: () => this.handleTransportClose(),
      // The SDK dispatches progress a microtask late and drops one read together with the
      // answer; taking it from the guard keeps message order.
      onProgress: (params) => this.requests.deliverProgress(params),
    });
  }

  /**
   * Starts the server (stdio) or reaches it (remote), and completes the `initialize` handshake,
   * declaring the MCP Apps extension.
   *
   * @param entry - one validated configuration entry.
   * @param options - startup and request deadlines, client identity.
   * @returns the open session.
   * @throws McpStartupError when the server cannot be started, exits, lost synchronization, or
   *   does not answer within `startupTimeout`; nothing is left running.
   */
  static async open(
    entry: McpServerConfig,
    options: McpClientSessionOptions = {},
  ): Promise<McpClientSession> {
    const session = new McpClientSession(entry, options);
    await session.start(toMilliseconds(options.startupTimeout ?? defaultSeconds));
    return session;
  }

  /** `starting`, `idle`, `busy` (a request is in flight) or `closed`. */
  get state(): McpSessionState {
    if (this.closeReason !== null) return "closed";
    if (this.starting) return "starting";
    return this.requests.size > 0 ? "busy" : "idle";
  }

  /** Why the session ended, or null while it is open. */
  get reason(): McpCloseReason | null {
    return this.closeReason;
  }

  /** How many requests are in flight. */
  get inFlight(): number {
    return this.requests.size;
  }

  /** How the session reaches its server. */
  get transportKind(): McpTransportKind {
    return this.link.kind;
  }

  /** The stdio server's pid (also its process group and session id); undefined for remote servers. */
  get processId(): number | undefined {
    return this.link.processId;
  }

  /** The server's name and version from `initialize`. */
  get serverInfo(): Implementation | undefined {
    return this.link.serverInfo;
  }

  /** The server's capabilities from `initialize`. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.link.serverCapabilities;
  }

  /** The server's instructions from `initialize`, if any. */
  get instructions(): string | undefined {
    return this.link.instructions;
  }

  /**
   * Registers a listener for the end of the session. A listener added after the end is called
   * on the next microtask.
   *
   * @param listener - receives the reason and the error pending requests were rejected with.
   * @returns a function that removes the listener.
   */
  onClose(listener: McpSessionCloseListener): () => void {
    if (this.closeReason !== null) {
      const reason = this.closeReason;
      queueMicrotask(() => listener(reason, this.endedError(reason)));
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /**
   * Closes the session now if its server process has exited, without waiting for the exit
   * event to be processed. Local only: nothing is sent.
   *
   * @returns true while the session is open.
   */
  checkAlive(): boolean {
    if (this.closeReason !== null) return false;
    const exit = this.link.exit;
    if (exit !== undefined && !this.starting) {
      void this.terminate("server_exited", new McpServerExitedError(this.server, exit));
      return false;
    }
    return true;
  }

  /**
   * Ends the session with reason `closed`. When idle, it first asks the server to shut down
   * (closes a stdio server's stdin, or ends a Streamable HTTP session) and waits at most
   * min(timeout, 2 s); then it kills the process tree. Requests in flight are rejected with
   * "MCP connection ended: closed". Safe to call again.
   *
   * @returns once the stdio server's whole process tree is gone (every descendant, even one
   *   that left its process group, on Linux; see `process-tree.ts`).
   */
  close(): Promise<void> {
    if (this.teardown !== undefined) return this.teardown;
    return this.terminate("closed", undefined, this.state === "idle");
  }

  /**
   * Ends the session at once with reason `cancelled` and kills the server's process tree; its
   * session state is lost. Requests in flight are rejected with "MCP connection ended:
   * cancelled". Safe to call again.
   *
   * @returns once the stdio server's whole process tree is gone.
   */
  cancel(): Promise<void> {
    return this.terminate("cancelled");
  }

  private async start(startupMs: number): Promise<void> {
    if (this.options.signal?.aborted === true) {
      const error = startupCalledOff(this.server);
      await this.terminate("startup_failed", error);
      throw error;
    }
    const startup = new StartupDeadline(this.server, startupMs, this.options.signal);
    this.startup = startup;
    try {
      // The SDK's own handshake limit is set a little later, so that ours decides.
      await Promise.race([this.link.connect(startupMs + 1000), startup.failed]);
      if (this.link.transportClosed) throw this.link.describeStartupFailure(undefined);
    } catch (error) {
      const startupError =
        error instanceof McpStartupError ? error : this.link.describeStartupFailure(error);
      await this.terminate("startup_failed", startupError);
      throw startupError;
    } finally {
      startup.dispose();
      this.startup = undefined;
    }
    this.starting = false;
  }

  private handleStrayResponse(): void {
    if (this.starting) {
      this.startup?.fail(
        new McpStartupError(
          `MCP server "${this.server}" lost request/response synchronization during startup. Check that nothing else writes to its stdout.`,
        ),
      );
      return;
    }
    void this.terminate("desynchronized", new McpDesynchronizedError(this.server));
  }

  private handleTransportClose(): void {
    // While starting, the handshake in progress fails on its own (start() also checks for a
    // close right after it).
    if (this.closeReason !== null || this.starting) return;
    const exit = this.link.exit;
    if (this.link.isStdio && exit === undefined) {
      // The transport gave up without the process exiting (an oversized message, a broken pipe).
      void this.terminate("crashed");
      return;
    }
    void this.terminate("server_exited", new McpServerExitedError(this.server, exit));
  }

  protected perform<Method extends RequestMethod>(
    method: Method,
    params: Record<string, unknown> | undefined,
    options: McpRequestOptions = {},
  ): Promise<ResultTypeMap[Method]> {
    if (this.closeReason !== null) return Promise.reject(new McpClosedError(this.closeReason));
    const deadlineMs =
      options.timeout === undefined ? this.defaultTimeoutMs : toMilliseconds(options.timeout);
    return this.requests.track(
      ({ signal, progressToken }) => {
        // Progress is relayed by the guard in message order (see InFlightRequests), so the
        // token is ours and the SDK gets no onprogress.
        const meta = (params?.["_meta"] ?? {}) as Record<string, unknown>;
        const sent =
          progressToken === undefined ? params : { ...params, _meta: { ...meta, progressToken } };
        const request = sent === undefined ? { method } : { method, params: sent };
        // The SDK's own timer is parked at the longest delay: the tracker's deadline decides.
        return this.link.request(request, { signal, timeout: largestDelayMs });
      },
      { ...options, deadlineMs },
      (error) => this.translate(error),
    );
  }

  // Maps what the SDK threw to this package's errors. An MCP error answer leaves the session
  // open; anything else means the transport failed under the request, which ends the session.
  private translate(error: unknown): Error {
    const answer = serverAnswerError(this.server, error);
    if (answer !== undefined) return answer;
    if (this.closeReason !== null) return this.endedError(this.closeReason);
    const failure = transportFailure(this.server, error, this.link.exit);
    void this.terminate(failure.reason, failure);
    return failure;
  }

  private endedError(reason: McpCloseReason): McpConnectionEndedError {
    return sessionEndedError(this.server, reason, this.link.exit);
  }

  private terminate(
    reason: McpCloseReason,
    error?: McpConnectionError,
    graceful = false,
  ): Promise<void> {
    if (this.teardown !== undefined) return this.teardown;
    this.closeReason = reason;
    this.ended.abort();
    const failure = error ?? this.endedError(reason);
    this.requests.failAll(failure);
    for (const listener of [...this.closeListeners]) {
      try {
        listener(reason, failure);
      } catch (listenerError) {
        this.options.onError?.(listenerError as Error);
      }
    }
    this.closeListeners.clear();
    this.teardown = this.shutDown(graceful);
    return this.teardown;
  }

  private async shutDown(graceful: boolean): Promise<void> {
    await this.link.shutDown(graceful, Math.min(this.defaultTimeoutMs, gracefulExitLimitMs));
  }
}

function toMilliseconds(seconds: number): number {
  return Math.min(Math.max(1, Math.round(seconds * 1000)), largestDelayMs);
}
