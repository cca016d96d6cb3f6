// The tools one agent (a chat) may call, and how shared MCP tools join them (deputy's
// register_tools / load_mcp / mcp_tools / mcp_status).
import { errorMessage } from "@mcp-chat-host/protocol";
import type { McpConfigInput, SharedToolHandle } from "./shared-connection-types";
import { sharedConnections, type SharedConnections } from "./shared-connections";
import { noToolsWarning } from "./tools-mcp";

/** What the registry needs to know about a tool. */
export interface RegisteredTool {
  name: string;
  /** Where the tool comes from; MCP tools say `{ type: "mcp", server }`. */
  source?: { type: string; server?: string };
  /** For tools bound to a connection: false once that connection was replaced or closed. */
  isCurrent?: () => boolean;
}

/** One load attempt, as {@link ToolRegistry.mcpStatus} reports it. */
export interface McpStatusRow {
  /**
   * `connected`: at least one tool loaded; `empty`: loading succeeded with no tools; `failed`:
   * loading or registration failed; `unavailable`: the shared connections were shut down.
   */
  status: "connected" | "empty" | "failed" | "unavailable";
  /** The configuration path as passed (or a loaded configuration's source); null for the default. */
  config: string | null;
  /** The server names requested; empty when every server was requested. */
  servers: string[];
  /** The names of the tools loaded. */
  tools: string[];
  loadedAt: Date;
  /** Why it failed; null otherwise. */
  error: string | null;
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Where MCP tools are loaded; the process-wide `sharedConnections` by default. */
  connections?: SharedConnections;
  /** Receives warnings; `console.warn` by default. */
  warn?: (message: string) => void;
  /** The clock for `loadedAt`. */
  now?: () => Date;
}

/** Options of {@link ToolRegistry.loadMcp}. */
export interface LoadMcpOptions {
  /** A file path (default: mcptools' path), a loaded configuration or a document. */
  config?: McpConfigInput;
  /** Exact server names; none or empty loads every server. */
  servers?: readonly string[];
  /**
   * `true`: first remove every MCP tool of the loaded servers (including tools they no longer
   * offer), then add the new ones, replacing any other tool of the same name. `false` (default):
   * a name already registered is an error.
   */
  replace?: boolean;
}

/** A tool registration that was refused; nothing was changed. */
export class ToolRegistrationError extends Error {
  /** Stable code callers switch on. */
  readonly code = "tool_registration";
  /** What to do about it, when there is something to do. */
  readonly hint: string | undefined;

  /**
   * @param message - what was refused.
   * @param options - `hint` (appended to the message) and `cause`.
   */
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(
      options.hint === undefined ? message : `${message} ${options.hint}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ToolRegistrationError";
    this.hint = options.hint;
  }
}

/**
 * The tools of one agent, by unique name, in registration order. Registration is atomic: a
 * refused batch changes nothing.
 */
export class ToolRegistry {
  private tools = new Map<string, RegisteredTool>();
  private readonly rows: McpStatusRow[] = [];
  private readonly connections: SharedConnections;
  private readonly warn: (message: string) => void;
  private readonly now: () => Date;

  /** @param options - the shared connections, the warning sink and the clock. */
  constructor(options: ToolRegistryOptions = {}) {
    this.connections = options.connections ?? sharedConnections;
    this.warn = options.warn ?? ((message: string) => console.warn(message));
    this.now = options.now ?? (() => new Date());
  }

  /** The registered tools, in registration order. */
  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /** The registered tool names, in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /**
   * Looks a tool up by exact name.
   *
   * @returns the tool, or undefined.
   */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /**
   * Adds tools. With `replace`, a tool of the same name is replaced in place.
   *
   * @throws ToolRegistrationError when a name is empty or repeated in `tools`, or (without
   *   `replace`) already registered: "Tool "x" is already registered." with the hint to use
   *   `replace: true`.
   */
  register(tools: readonly RegisteredTool[], options: { replace?: boolean } = {}): void {
    this.tools = merged(this.tools, tools, checkReplace(options.replace));
  }

  /**
   * Removes tools by name; unknown names are ignored.
   *
   * @returns the names removed.
   */
  unregister(names: readonly string[]): string[] {
    return names.filter((name) => this.tools.delete(name));
  }

  /**
   * Loads the tools of shared MCP connections and registers them, then records a status row.
   * A loading failure warns ("Failed to fetch MCP tools") and returns an empty list; a
   * registration failure is thrown. Either way, tools whose connection was replaced or closed
   * are dropped before it returns.
   *
   * @returns the tools loaded (empty on a loading failure).
   * @throws ToolRegistrationError when `replace` is not a boolean, or "Failed to register MCP
   *   tools" when the loaded tools cannot be registered.
   */
  async loadMcp(options: LoadMcpOptions = {}): Promise<SharedToolHandle[]> {
    const replace = checkReplace(options.replace);
    const row = {
      config: configLabel(options.config),
      servers: [...(options.servers ?? [])],
    };
    try {
      if (this.connections.isShutDown) {
        this.warn("Failed to fetch MCP tools: the shared MCP connections have been shut down.");
        this.record({ ...row, status: "unavailable", tools: [], error: "shut down" });
        return [];
      }
      let servers: string[];
      let tools: SharedToolHandle[];
      try {
        ({ servers, tools } = await this.connections.load(options.config, options.servers));
      } catch (error) {
        this.warn(`Failed to fetch MCP tools: ${errorMessage(error)}`);
        this.record({ ...row, status: "failed", tools: [], error: errorMessage(error) });
        return [];
      }
      try {
        let base = this.tools;
        if (replace) {
          const loaded = new Set(servers);
          base = new Map([...this.tools].filter(([, tool]) => !isMcpToolOf(tool, loaded)));
        }
        this.tools = merged(base, tools, replace);
      } catch (error) {
        this.record({ ...row, status: "failed", tools: [], error: errorMessage(error) });
        throw new ToolRegistrationError(`Failed to register MCP tools: ${errorMessage(error)}`, {
          cause: error,
        });
      }
      if (tools.length === 0) this.warn(noToolsWarning(servers));
      const names = tools.map((tool) => tool.name);
      this.record({
        ...row,
        status: names.length === 0 ? "empty" : "connected",
        tools: names,
        error: null,
      });
      return tools;
    } finally {
      this.discardStale();
    }
  }

  /** The names of the registered MCP tools, in registration order. */
  mcpTools(): string[] {
    return this.list()
      .filter((tool) => tool.source?.type === "mcp")
      .map((tool) => tool.name);
  }

  /** Every load attempt, oldest first (copies). */
  mcpStatus(): McpStatusRow[] {
    return this.rows.map((row) => ({ ...row, servers: [...row.servers], tools: [...row.tools] }));
  }

  /**
   * Drops tools whose connection was replaced or closed.
   *
   * @returns the names dropped.
   */
  discardStale(): string[] {
    const stale = this.list().filter((tool) => tool.isCurrent?.() === false);
    return this.unregister(stale.map((tool) => tool.name));
  }

  private record(row: Omit<McpStatusRow, "loadedAt">): void {
    this.rows.push({ ...row, loadedAt: this.now() });
  }
}

function checkReplace(replace: unknown): boolean {
  if (replace === undefined) return false;
  if (typeof replace !== "boolean") {
    throw new ToolRegistrationError("`replace` must be true or false.");
  }
  return replace;
}

function merged(
  base: ReadonlyMap<string, RegisteredTool>,
  incoming: readonly RegisteredTool[],
  replace: boolean,
): Map<string, RegisteredTool> {
  const seen = new Set<string>();
  for (const tool of incoming) {
    if (typeof tool?.name !== "string" || tool.name === "") {
      throw new ToolRegistrationError("Every tool needs a non-empty name.");
    }
    if (seen.has(tool.name)) {
      throw new ToolRegistrationError(
        `Tool "${tool.name}" appears more than once in one registration; register each name once.`,
      );
    }
    seen.add(tool.name);
    if (!replace && base.has(tool.name)) {
      throw new ToolRegistrationError(`Tool "${tool.name}" is already registered.`, {
        hint: "Use `replace: true` to replace an existing tool.",
      });
    }
  }
  const result = new Map(base);
  for (const tool of incoming) result.set(tool.name, tool);
  return result;
}

function isMcpToolOf(tool: RegisteredTool, servers: ReadonlySet<string>): boolean {
  return (
    tool.source?.type === "mcp" &&
    tool.source.server !== undefined &&
    servers.has(tool.source.server)
  );
}

function configLabel(config: McpConfigInput | undefined): string | null {
  if (config === undefined) return null;
  if (typeof config === "string") return config;
  return "source" in config && typeof config.source === "string" ? config.source : null;
}
