// Shared connections: one process-wide connection per configured server name, whose tools any
// conversation may register. Loading a name again replaces its connection, and the old tool
// handles then refuse to run.
import { randomUUID } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/client";
import type { McpConfig, McpServerConfig } from "./config/config-types";
import { loadMcpConfig } from "./config/load-config";
import { parseMcpConfig } from "./config/parse-config";
import { selectServers } from "./config/select-servers";
import { McpStartupError, type McpCloseReason } from "./connection-errors";
import { McpClientSession } from "./mcp-client-session";
import { suppliedToolArguments, validateToolAnnotations } from "./mcp-connection-validation";
import { McpSharedConnectionError } from "./shared-connection-error";
import { toolHandle } from "./tool-handle";
import type {
  McpConfigInput,
  SharedConnectionsOptions,
  SharedConnectionStatus,
  SharedLoadResult,
  SharedToolCallOptions,
  SharedToolHandle,
} from "./shared-connection-types";

interface SharedEntry {
  server: string;
  connectionId: string;
  session: McpClientSession;
  handles: readonly SharedToolHandle[];
  /** Set when a later load took the name: old handles then report `stale`. */
  replaced: boolean;
}

const maxToolPages = 64;

/**
 * A registry of shared connections, one per server name. {@link sharedConnections} is the
 * process-wide one; construct others for tests or for isolated hosts.
 */
export class SharedConnections {
  private readonly options: SharedConnectionsOptions;
  private readonly entries = new Map<string, SharedEntry>();
  private queue: Promise<unknown> = Promise.resolve();
  private shutDown = false;

  /** @param options - startup and request deadlines, and session options. */
  constructor(options: SharedConnectionsOptions = {}) {
    this.options = options;
  }

  /** Whether {@link SharedConnections.shutdown} was called. */
  get isShutDown(): boolean {
    return this.shutDown;
  }

  /**
   * Connects to the selected servers and lists their tools. A server already loaded is closed
   * first (its old handles then fail with `stale`) and started again. When any server fails,
   * the ones this call started are closed and the error is thrown: nothing is half loaded.
   * Loads run one after another.
   *
   * @param config - a file path (default: mcptools' path), a loaded configuration or a document.
   * @param servers - exact server names; none or empty selects every server. Servers not
   *   selected are never started.
   * @returns the servers loaded and their tool handles.
   * @throws McpConfigError for the configuration or the selection; McpStartupError when a
   *   server does not start or lists invalid annotations; McpSharedConnectionError
   *   (`unavailable`) after shutdown.
   */
  load(config?: McpConfigInput, servers?: readonly string[]): Promise<SharedLoadResult> {
    const run = this.queue.then(() => this.loadNow(config, servers));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The state of one server's shared connection. Local only.
   *
   * @returns its status, or undefined when the name is not loaded.
   */
  status(server: string): SharedConnectionStatus | undefined {
    const entry = this.entries.get(server);
    if (entry === undefined) return undefined;
    entry.session.checkAlive();
    return {
      server,
      connectionId: entry.connectionId,
      state: entry.session.state,
      reason: entry.session.reason,
      processId: entry.session.processId,
      tools: entry.handles.map((handle) => handle.name),
    };
  }

  /** The names of the loaded servers, in load order. */
  servers(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Closes one server's shared connection (its handles then fail with `closed`).
   *
   * @returns once the server is gone; at once when it is not loaded.
   */
  async close(server: string): Promise<void> {
    const entry = this.entries.get(server);
    if (entry === undefined) return;
    this.entries.delete(server);
    await entry.session.close();
  }

  /**
   * Closes every shared connection and refuses later loads. Call it when the host stops.
   *
   * @returns once every server is gone.
   */
  async shutdown(): Promise<void> {
    this.shutDown = true;
    await Promise.all(this.servers().map((server) => this.close(server)));
  }

  private async loadNow(
    config: McpConfigInput | undefined,
    servers: readonly string[] | undefined,
  ): Promise<SharedLoadResult> {
    if (this.shutDown) {
      throw new McpSharedConnectionError(
        "unavailable",
        "Shared MCP connections have been shut down; create a new SharedConnections to load tools.",
      );
    }
    const entries = selectServers(await resolveConfig(config), servers);
    // Close old connections before starting new ones, as mcptools does: a server may hold
    // something (a port, a lock file) a second copy of it could not take.
    await Promise.all(
      entries.map(async ({ name }) => {
        const old = this.entries.get(name);
        if (old === undefined) return;
        old.replaced = true;
        this.entries.delete(name);
        await old.session.close();
      }),
    );
    const opened = await Promise.allSettled(entries.map((entry) => this.open(entry)));
    const failure = opened.find((result) => result.status === "rejected");
    const started = opened.flatMap((result) =>
      result.status === "fulfilled" ? [result.value] : [],
    );
    if (failure !== undefined) {
      await Promise.all(started.map((entry) => entry.session.close()));
      throw failure.reason;
    }
    for (const entry of started) this.entries.set(entry.server, entry);
    return {
      servers: started.map((entry) => entry.server),
      tools: started.flatMap((entry) => entry.handles),
    };
  }

  private async open(server: McpServerConfig): Promise<SharedEntry> {
    const session = await McpClientSession.open(server, {
      ...this.options.session,
      ...(this.options.startupTimeout === undefined
        ? {}
        : { startupTimeout: this.options.startupTimeout }),
      ...(this.options.timeout === undefined ? {} : { timeout: this.options.timeout }),
    });
    try {
      const definitions = await listAllTools(session);
      for (const tool of definitions) validateToolAnnotations(tool.name, tool.annotations);
      const entry: SharedEntry = {
        server: server.name,
        connectionId: `mcp_${randomUUID().replaceAll("-", "")}`,
        session,
        handles: [],
        replaced: false,
      };
      entry.handles = Object.freeze(definitions.map((tool) => this.handle(entry, tool)));
      return entry;
    } catch (error) {
      await session.cancel();
      throw error;
    }
  }

  private handle(entry: SharedEntry, definition: Tool): SharedToolHandle {
    const isCurrent = (): boolean => this.entries.get(entry.server) === entry;
    return toolHandle<SharedToolHandle>(definition, entry, {
      isCurrent,
      call: async (args?: Record<string, unknown>, options: SharedToolCallOptions = {}) => {
        if (!isCurrent()) throw notCurrentError(entry);
        if (!entry.session.checkAlive()) {
          throw closedError(entry.server, entry.session.reason ?? "closed");
        }
        const { signal, onProgress, timeout } = options;
        return entry.session.callTool(definition.name, suppliedToolArguments(args), {
          ...(signal === undefined ? {} : { signal }),
          ...(onProgress === undefined ? {} : { onProgress }),
          ...(timeout === undefined ? {} : { timeout }),
        });
      },
    });
  }
}

/** The process-wide registry of shared connections that {@link toolsMcp} uses by default. */
export const sharedConnections = new SharedConnections();

async function resolveConfig(config: McpConfigInput | undefined): Promise<McpConfig> {
  if (config === undefined || typeof config === "string") return loadMcpConfig(config);
  if ("servers" in config && !("mcpServers" in config)) return config;
  return parseMcpConfig(config);
}

async function listAllTools(session: McpClientSession): Promise<Tool[]> {
  const definitions: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxToolPages; page += 1) {
    const result = await session.listTools(cursor);
    definitions.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return definitions;
  }
  throw new McpStartupError(
    `MCP server "${session.server}" listed more than ${maxToolPages} pages of tools; it was not loaded.`,
  );
}

function notCurrentError(entry: SharedEntry): McpSharedConnectionError {
  if (!entry.replaced) return closedError(entry.server, "closed");
  return new McpSharedConnectionError(
    "stale",
    `MCP server "${entry.server}" was reconnected; load its tools again.`,
    entry.server,
  );
}

function closedError(server: string, reason: McpCloseReason): McpSharedConnectionError {
  return new McpSharedConnectionError(
    "closed",
    `The shared connection to MCP server "${server}" is closed (${reason}); load its tools again.`,
    server,
  );
}
