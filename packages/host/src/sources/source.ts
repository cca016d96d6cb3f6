import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/client";

/** Where a source's server lives: in this process (`app`) or behind an MCP connection. */
export type SourceKind = "app" | "connection";

/**
 * A tool as a source lists it: the MCP definition with its `_meta` kept raw as `meta`,
 * so the host can read `_meta.ui` (view, visibility) without the SDK's types in the way.
 */
export interface SourceTool {
  /** The tool's name, unique within its source. */
  name: string;
  /** The tool's display title, when the server gave one. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /** JSON Schema of the arguments (always an object schema). */
  inputSchema: Tool["inputSchema"];
  /** JSON Schema of `structuredContent`, when the server declared one. */
  outputSchema?: Tool["outputSchema"];
  /** The server's hints (read-only, destructive, idempotent, open world). */
  annotations?: ToolAnnotations;
  /** The tool's raw `_meta`: `_meta.ui.resourceUri`, `_meta.ui.visibility`, the legacy `ui/resourceUri`. */
  meta?: Record<string, unknown>;
}

/** One progress notification of a running tool call. */
export interface SourceProgress {
  /** Progress so far; increases with every notification. */
  progress: number;
  /** The total, when the server knows it. */
  total?: number;
  /** A short human-readable message, when the server sent one. */
  message?: string;
}

/** Options of any request made through a source. */
export interface SourceRequestOptions {
  /** Aborting cancels the request (the server is told with `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Seconds to wait for the answer; the source's own timeout when omitted. */
  timeout?: number;
  /**
   * Who makes the request (an `ElicitationCaller`): a question the server asks the person
   * during it goes to that session. Sources that cannot ask ignore it.
   */
  caller?: unknown;
}

/** Options of a tool call made through a source. */
export interface SourceCallOptions extends SourceRequestOptions {
  /** Called for each progress notification; also restarts the timeout. */
  onProgress?: (progress: SourceProgress) => void;
}

/**
 * What every source gives the host: an in-process `McpApp`, a remote server reached with
 * `mcpClient()`, or a configured `McpConnection`. One `Source` is one live connection to one
 * server; a card's page calls go only to the source that opened the card.
 */
export interface Source {
  /** The source's unique name within a chat (the app's name, or the client's name). */
  readonly key: string;
  /** Whether the server runs in this process or behind a connection. */
  readonly kind: SourceKind;
  /** True once {@link Source.close} was called or the server went away. */
  readonly closed: boolean;
  /**
   * The server's tools. Listed once (following every page), then served from a cache that is
   * dropped when the server sends `notifications/tools/list_changed`.
   *
   * @param options - `refresh: true` lists again even when the cache is fresh.
   * @returns the tool definitions, in the server's order.
   * @throws {SourceError} when the server cannot be reached or refuses the listing.
   */
  tools(options?: { refresh?: boolean } & SourceRequestOptions): Promise<SourceTool[]>;
  /**
   * The cached tool list without asking the server.
   *
   * @returns the cached tools, or `undefined` before the first listing or after a change.
   */
  cachedTools(): SourceTool[] | undefined;
  /**
   * Calls a tool. Arguments are passed on as given.
   *
   * @returns the server's result; a tool that failed gives a result with `isError: true`.
   * @throws {SourceError} `timeout`, `cancelled`, `closed`, `protocol` or `unavailable`.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: SourceCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Reads a resource (`resources/read`), such as a view's `ui://` page.
   *
   * @throws {SourceError} as for {@link Source.callTool}.
   */
  readResource(uri: string, options?: SourceRequestOptions): Promise<ReadResourceResult>;
  /**
   * Lists resources. With a cursor, one page as the server sent it (with its `nextCursor`);
   * without, every page joined.
   *
   * @throws {SourceError} as for {@link Source.callTool}.
   */
  listResources(cursor?: string, options?: SourceRequestOptions): Promise<ListResourcesResult>;
  /**
   * Lists resource templates, paged as {@link Source.listResources}.
   *
   * @throws {SourceError} as for {@link Source.callTool}.
   */
  listResourceTemplates(
    cursor?: string,
    options?: SourceRequestOptions,
  ): Promise<ListResourceTemplatesResult>;
  /**
   * Lists prompts, paged as {@link Source.listResources}. A server without the `prompts`
   * capability has none: the list is empty, and nothing is asked.
   *
   * @throws {SourceError} as for {@link Source.callTool}.
   */
  listPrompts(cursor?: string, options?: SourceRequestOptions): Promise<ListPromptsResult>;
  /**
   * Gets a prompt (`prompts/get`) with its arguments filled in.
   *
   * @returns the prompt's messages, as the server wrote them.
   * @throws {SourceError} as for {@link Source.callTool}; a server without the `prompts`
   *   capability is refused with `unavailable`.
   */
  getPrompt(
    name: string,
    args: Record<string, string>,
    options?: SourceRequestOptions,
  ): Promise<GetPromptResult>;
  /**
   * Registers a listener for `notifications/tools/list_changed` (after the cache is dropped).
   *
   * @returns a function that removes the listener.
   */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Registers a listener called once when the source closes, by {@link Source.close} or because
   * the server went away.
   *
   * @returns a function that removes the listener.
   */
  onClose(listener: () => void): () => void;
  /** Closes the connection; requests still running fail with a `closed` error. Idempotent. */
  close(): Promise<void>;
}

/**
 * Something the host can open a {@link Source} from, once per conversation (or once per process
 * for a shared connection): an `McpApp`, or the value of `mcpClient()`.
 */
export interface SourceFactory {
  /** The key every source opened from this factory has. */
  readonly key: string;
  /** The kind of every source opened from this factory. */
  readonly kind: SourceKind;
  /**
   * Opens a new source. It may connect lazily: nothing need be sent before its first request.
   *
   * @throws {SourceError} when the server cannot be started or reached.
   */
  open(): Promise<Source>;
}
