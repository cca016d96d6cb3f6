// A host-owned connection to one configured MCP server (deputy's McpConnection): fixed
// allowlists, an owner, one request at a time, and a timeout, a lost reply or a server exit that
// ends the connection for good. Built on McpClientSession, which owns the transport and process.
import { randomUUID } from "node:crypto";
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  Tool,
} from "@modelcontextprotocol/client";
import {
  McpBusyError,
  McpClosedError,
  McpPermissionDeniedError,
  McpValidationError,
  type McpCloseReason,
} from "./connection-errors";
import { buildCapabilityTools, type McpCapabilityTool } from "./mcp-capability-tools";
import { McpClientSession } from "./mcp-client-session";
import {
  asStartupFailure,
  listAllowedTools,
  listCataloguePage,
  resolveServerEntry,
  validateConnectionOptions,
} from "./mcp-connection-steps";
import {
  catalogueOperations,
  assertCaller,
  suppliedToolArguments,
  validateDiscovery,
  validatePrefix,
  validatePromptArguments,
  type McpCatalogueKind,
  type McpOwner,
} from "./mcp-connection-validation";
import type {
  McpAllowlists,
  McpCallOptions,
  McpCataloguePage,
  McpConnectionOptions,
  McpConnectionState,
  McpConnectionStatus,
  McpProvenanced,
  McpSource,
  McpToolHandle,
} from "./mcp-connection-types";
import { toolHandle } from "./tool-handle";

/**
 * A connection to one configured server, owned by one owner, with fixed allowlists. At most one
 * request runs at a time: another one fails at once with {@link McpBusyError}. A timeout, a lost
 * reply, a server exit, `cancel()` or `close()` end it for good; afterwards every call fails
 * with {@link McpClosedError} ("create a new connection").
 *
 * Create it with `await McpConnection.open(options)`, or `new McpConnection(options)` and
 * `await connection.ready`. Options are validated in the constructor, before any process starts.
 */
export class McpConnection {
  /** `mcp_<unique>`. */
  readonly connectionId: string;
  /** The configured server name. */
  readonly server: string;
  /** The owner record, frozen. */
  readonly owner: Readonly<McpOwner>;
  /** The allowlists, frozen at construction. */
  readonly allowed: Readonly<McpAllowlists>;
  /** Resolves once started; rejects with the startup failure (the connection is then closed). */
  readonly ready: Promise<void>;

  private session: McpClientSession | undefined;
  private localReason: McpCloseReason | null = null;
  private started = false;
  private active = false;
  private definitions: readonly Tool[] = Object.freeze([]);
  private handles: readonly McpToolHandle[] = Object.freeze([]);
  // Why startup failed, for the callers who come later (many never await `ready`).
  private startupFailure: Error | undefined;
  private readonly timeout: number | undefined;
  // What every request is sent with: the connection's timeout, when it has one.
  private readonly requestOptions: { timeout?: number };
  private readonly startup = new AbortController();

  /**
   * Validates the options and starts connecting.
   *
   * @throws McpValidationError for a bad owner, allowlist, timeout, server or config argument.
   */
  constructor(options: McpConnectionOptions) {
    const checked = validateConnectionOptions(options);
    this.owner = checked.owner;
    this.allowed = checked.allowed;
    this.timeout = checked.timeout;
    this.requestOptions = checked.timeout === undefined ? {} : { timeout: checked.timeout };
    const startupTimeout = checked.startupTimeout;
    this.server = checked.server;
    this.connectionId = `mcp_${randomUUID().replaceAll("-", "")}`;
    this.ready = this.start(options, startupTimeout);
    // Callers who only use `open()` or never await `ready` must not see an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /**
   * Creates a connection and waits until it is ready.
   *
   * @returns the started connection.
   * @throws McpValidationError, McpConfigError or McpStartupError.
   */
  static async open(options: McpConnectionOptions): Promise<McpConnection> {
    const connection = new McpConnection(options);
    await connection.ready;
    return connection;
  }

  /** The current state. */
  get state(): McpConnectionState {
    if (this.reason !== null) return "closed";
    if (!this.started) return "starting";
    return this.active ? "busy" : "idle";
  }

  /** Why the connection ended, or null while it is open. */
  get reason(): McpCloseReason | null {
    return this.localReason ?? this.session?.reason ?? null;
  }

  /**
   * Local state and the fixed allowances. Sends nothing. When the server process has died,
   * the connection first closes with reason `server_exited`.
   *
   * @returns the status record.
   */
  status(): McpConnectionStatus {
    this.session?.checkAlive();
    return {
      connectionId: this.connectionId,
      server: this.server,
      owner: this.owner,
      state: this.state,
      reason: this.reason,
      allowed: this.allowed,
    };
  }

  /**
   * The tool definitions listed at startup (every tool the server offered, allowed or not).
   * Local: nothing is sent, and listing a tool does not allow it.
   *
   * @returns the definitions; empty when the `tools` allowlist is empty.
   */
  listTools(): readonly Tool[] {
    return this.definitions;
  }

  /**
   * Fetches one catalogue page. Listing an item never allows it.
   *
   * @param kind - `tools`, `resources`, `resource_templates` or `prompts`.
   * @param cursor - a cursor from a previous page, passed through as given (even empty).
   * @returns the page with its provenance.
   * @throws McpValidationError, McpBusyError, McpClosedError, McpServerError, or an ended error.
   */
  async discover<Kind extends McpCatalogueKind>(
    kind: Kind,
    cursor?: string | null,
  ): Promise<McpProvenanced<McpCataloguePage[Kind]>> {
    const checked = validateDiscovery(kind, cursor);
    const options = this.requestOptions;
    const result = await this.request((session) =>
      listCataloguePage(session, checked.kind, checked.cursor, options),
    );
    // The page answers `kind` with its own page type.
    return {
      source: this.source(catalogueOperations[checked.kind]),
      result: result as McpCataloguePage[Kind],
    };
  }

  /**
   * Reads one allowed resource. Links in the result are not followed.
   *
   * @throws McpPermissionDeniedError before anything is sent when `uri` is not allowed.
   */
  async readResource(uri: string): Promise<McpProvenanced<ReadResourceResult>> {
    if (typeof uri !== "string") throw new McpValidationError("`uri` must be a string.");
    if (!this.allowed.resources.includes(uri)) throw new McpPermissionDeniedError("resources", uri);
    const options = this.requestOptions;
    const result = await this.request((session) => session.readResource(uri, options));
    return { source: this.source("resources/read"), result };
  }

  /**
   * Retrieves one allowed prompt. It is returned to the caller, never added to a chat.
   *
   * @param args - named string values; `{}` when absent.
   * @throws McpPermissionDeniedError before anything is sent when `name` is not allowed;
   *   McpValidationError for malformed arguments.
   */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
  ): Promise<McpProvenanced<GetPromptResult>> {
    if (typeof name !== "string") throw new McpValidationError("`name` must be a string.");
    if (!this.allowed.prompts.includes(name)) throw new McpPermissionDeniedError("prompts", name);
    const sent = validatePromptArguments(args);
    const options = this.requestOptions;
    const result = await this.request((session) => session.getPrompt(name, sent, options));
    return { source: this.source("prompts/get"), result };
  }

  /**
   * Calls one allowed tool as `options.owner` (the host uses this for its cards' page calls;
   * visibility is the host's check). Only supplied arguments are sent.
   *
   * @throws McpPermissionDeniedError, McpOwnerMismatchError or McpValidationError before
   *   anything is sent; McpBusyError, McpClosedError; McpServerError or an ended error after.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    if (typeof name !== "string") throw new McpValidationError("`name` must be a string.");
    if (!this.allowed.tools.includes(name)) throw new McpPermissionDeniedError("tools", name);
    assertCaller(options, this.owner);
    const sent = suppliedToolArguments(args);
    const requestOptions = {
      ...this.requestOptions,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    };
    return this.request((session) => session.callTool(name, sent, requestOptions));
  }

  /**
   * Handles for the allowed tools, in allowlist order, with the server's descriptions, schemas,
   * annotations and `_meta`. Each handle's `isCurrent()` turns false once the connection ends
   * (cancelled, closed, timed out, the server gone), so a `ToolRegistry` drops it as stale.
   *
   * @throws McpValidationError while starting; McpClosedError after a failed start.
   */
  tools(): readonly McpToolHandle[] {
    this.assertStarted();
    return this.handles;
  }

  /**
   * Tools for reading the allowed resources and prompts: `<prefix>_read_resource` (when any
   * resource is allowed) and `<prefix>_get_prompt` (when any prompt is allowed). Use distinct
   * prefixes for several connections.
   *
   * @param prefix - 1 to 50 letters, digits, underscores or hyphens. Default `mcp`.
   * @throws McpValidationError for a bad prefix.
   */
  capabilityTools(prefix = "mcp"): readonly McpCapabilityTool[] {
    return buildCapabilityTools({
      prefix: validatePrefix(prefix),
      server: this.server,
      connectionId: this.connectionId,
      owner: this.owner,
      resources: this.allowed.resources,
      prompts: this.allowed.prompts,
      checkCaller: (options) => assertCaller(options, this.owner),
      isCurrent: () => this.isCurrent(),
      readResource: (uri) => this.readResource(uri),
      getPrompt: (name) => this.getPrompt(name),
    });
  }

  /**
   * Ends the connection at once with reason `cancelled` and kills the server's process tree;
   * its session state is lost. A pending call rejects with "MCP connection ended: cancelled".
   * Safe to call again.
   *
   * @returns once the server's whole process tree is gone.
   */
  async cancel(): Promise<void> {
    await this.end("cancelled");
  }

  /**
   * Closes the connection with reason `closed`: when idle, the server is first asked to shut
   * down (at most min(timeout, 2) s), then its process tree is killed. A pending call rejects
   * with "MCP connection ended: closed". Safe to call again.
   *
   * @returns once the server's whole process tree is gone.
   */
  async close(): Promise<void> {
    await this.end("closed");
  }

  private async end(reason: "cancelled" | "closed"): Promise<void> {
    if (!this.started) {
      // Still starting (or failed to): call the startup off. The reason is set first so that
      // the failing startup does not report itself as startup_failed.
      this.localReason ??= reason;
      this.startup.abort();
      await this.session?.cancel();
      await this.ready.catch(() => undefined);
      return;
    }
    const session = this.session as McpClientSession;
    await (reason === "cancelled" ? session.cancel() : session.close());
  }

  private async start(
    options: McpConnectionOptions,
    startupTimeout: number | undefined,
  ): Promise<void> {
    try {
      const entry = await resolveServerEntry(options.config, this.server);
      if (this.localReason !== null) throw new McpClosedError(this.localReason);
      const session = await McpClientSession.open(entry, {
        ...options.session,
        ...(startupTimeout === undefined ? {} : { startupTimeout }),
        ...(this.timeout === undefined ? {} : { timeout: this.timeout }),
        signal: this.startup.signal,
      });
      this.session = session;
      if (this.localReason !== null) throw new McpClosedError(this.localReason);
      if (this.allowed.tools.length > 0) await this.loadTools(session);
      this.started = true;
    } catch (error) {
      const failedItself = this.localReason === null;
      this.localReason ??= "startup_failed";
      const failure = asStartupFailure(error, this.server);
      // Called off by close() or cancel(): that reason says it all.
      if (failedItself) this.startupFailure = failure;
      await this.session?.cancel();
      throw failure;
    }
  }

  // Lists the tools (only when tools are allowed) and builds the allowed ones' handles.
  private async loadTools(session: McpClientSession): Promise<void> {
    const { definitions, byName } = await listAllowedTools(
      session,
      this.server,
      this.allowed.tools,
      this.requestOptions,
    );
    this.definitions = definitions;
    this.handles = Object.freeze(
      this.allowed.tools.map((name) => {
        const definition = byName.get(name) as Tool;
        return toolHandle<McpToolHandle>(definition, this, {
          owner: this.owner,
          isCurrent: () => this.isCurrent(),
          call: (args: Record<string, unknown> | undefined, options: McpCallOptions) =>
            this.callTool(definition.name, args, options),
        });
      }),
    );
  }

  private assertStarted(): void {
    const reason = this.reason;
    if (reason !== null && !this.started) throw this.closedError(reason);
    if (!this.started && reason === null) {
      throw new McpValidationError(
        "The MCP connection is still starting; await `connection.ready` first.",
      );
    }
  }

  private closedError(reason: McpCloseReason): McpClosedError {
    return reason === "startup_failed" && this.startupFailure !== undefined
      ? new McpClosedError(reason, this.startupFailure)
      : new McpClosedError(reason);
  }

  // Local: the server's death is noticed without waiting for its exit event.
  private isCurrent(): boolean {
    this.session?.checkAlive();
    return this.reason === null;
  }

  private source(operation: string): McpSource {
    return { type: "mcp", server: this.server, connectionId: this.connectionId, operation };
  }

  // One request at a time. The busy check happens synchronously in the caller's turn, so a
  // second call made while one runs is refused at once.
  private async request<Result>(
    run: (session: McpClientSession) => Promise<Result>,
  ): Promise<Result> {
    if (!this.started && this.reason === null) await this.ready.catch(() => undefined);
    this.session?.checkAlive();
    const reason = this.reason;
    if (reason !== null) throw this.closedError(reason);
    const session = this.session as McpClientSession;
    if (this.active) throw new McpBusyError();
    this.active = true;
    try {
      return await run(session);
    } finally {
      this.active = false;
    }
  }
}
