import type {
  CallToolResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import { SourceError } from "./source-error";
import type {
  Source,
  SourceCallOptions,
  SourceProgress,
  SourceRequestOptions,
  SourceTool,
} from "./source";
import { toSourceTool } from "./tool-metadata";

/** Options of one request to a {@link ConnectionSession}; `timeout` in seconds. */
export interface ConnectionRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  onProgress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
  resetTimeoutOnProgress?: boolean;
}

/**
 * What {@link ConnectionSource} needs of a live MCP session: the shape of `McpClientSession`
 * from `@mcp-chat-host/connection` (stdio or Streamable HTTP), described here so sources don't
 * depend on how that session is built.
 */
export interface ConnectionSession {
  /** The configured server name. */
  readonly server: string;
  /** `closed` once the session ended. */
  readonly state: string;
  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: ConnectionRequestOptions): Promise<ListToolsResult>;
  /** Calls a tool. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: ConnectionRequestOptions,
  ): Promise<CallToolResult>;
  /** Reads a resource. */
  readResource(uri: string, options?: ConnectionRequestOptions): Promise<ReadResourceResult>;
  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: ConnectionRequestOptions): Promise<ListResourcesResult>;
  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    cursor?: string,
    options?: ConnectionRequestOptions,
  ): Promise<ListResourceTemplatesResult>;
  /** Ends the session. */
  close(): Promise<void>;
  /** Registers a listener for the end of the session; returns its remover. */
  onClose(listener: () => void): () => void;
  /** Registers a listener for `notifications/tools/list_changed`, when the session relays them. */
  onToolsChanged?(listener: () => void): () => void;
}

/** How many pages of a list a source follows before deciding the server is looping. */
export const MAX_LIST_PAGES = 64;

/** Options of {@link ConnectionSource}. */
export interface ConnectionSourceOptions {
  /** The source key; the session's server name when omitted. */
  key?: string;
}

/** Codes of `@mcp-chat-host/connection` errors, mapped to source error codes. */
const CONNECTION_CODES: Record<string, SourceError["code"]> = {
  closed: "closed",
  timeout: "timeout",
  server_exited: "closed",
  desynchronized: "closed",
  startup_failed: "unavailable",
  busy: "unavailable",
  validation: "invalid_options",
  permission_denied: "protocol",
  owner_mismatch: "protocol",
};

/**
 * A {@link Source} over a configured server's session (`McpClientSession` from
 * `@mcp-chat-host/connection`). The tool list is read in full (following `nextCursor`, at most
 * {@link MAX_LIST_PAGES} pages) on first use and cached; it is dropped when the session relays
 * `notifications/tools/list_changed`, or read again with `refresh`.
 */
export class ConnectionSource implements Source {
  /** {@inheritDoc Source.key} */
  readonly key: string;
  /** Always `connection`. */
  readonly kind = "connection" as const;
  readonly #session: ConnectionSession;
  #tools: SourceTool[] | undefined;
  #toolsGeneration = 0;
  #closed = false;
  readonly #toolsListeners = new Set<() => void>();
  readonly #closeListeners = new Set<() => void>();
  readonly #unsubscribe: (() => void)[] = [];

  /**
   * @param session - an open session.
   * @param options - the key, when it should differ from the server's configured name.
   */
  constructor(session: ConnectionSession, options: ConnectionSourceOptions = {}) {
    this.#session = session;
    this.key = options.key ?? session.server;
    this.#unsubscribe.push(session.onClose(() => this.#ended()));
    if (session.onToolsChanged !== undefined) {
      this.#unsubscribe.push(
        session.onToolsChanged(() => {
          this.#toolsGeneration += 1;
          this.#tools = undefined;
          for (const listener of [...this.#toolsListeners]) listener();
        }),
      );
    }
    if (session.state === "closed") this.#ended();
  }

  /** {@inheritDoc Source.closed} */
  get closed(): boolean {
    return this.#closed;
  }

  /** {@inheritDoc Source.tools} */
  async tools(options: { refresh?: boolean } & SourceRequestOptions = {}): Promise<SourceTool[]> {
    const cached = this.cachedTools();
    if (options.refresh !== true && cached !== undefined) return cached;
    const generation = this.#toolsGeneration;
    const tools: SourceTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page === MAX_LIST_PAGES) {
        throw new SourceError(
          "protocol",
          `${this.key} kept sending more pages of tools after ${MAX_LIST_PAGES}; the server's tools/list paging is broken.`,
        );
      }
      const result = await this.#request(
        () => this.#session.listTools(cursor, requestOptions(options)),
        options.signal,
      );
      tools.push(...result.tools.map(toSourceTool));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      if (seen.has(cursor)) {
        throw new SourceError(
          "protocol",
          `${this.key} sent the same tools/list cursor twice; its paging is broken.`,
        );
      }
      seen.add(cursor);
    }
    if (generation === this.#toolsGeneration && !this.#closed) this.#tools = tools;
    return tools.map((tool) => ({ ...tool }));
  }

  /** {@inheritDoc Source.cachedTools} */
  cachedTools(): SourceTool[] | undefined {
    return this.#tools?.map((tool) => ({ ...tool }));
  }

  /** {@inheritDoc Source.callTool} */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: SourceCallOptions = {},
  ): Promise<CallToolResult> {
    const { onProgress } = options;
    const connectionOptions = requestOptions(options);
    if (onProgress !== undefined) {
      connectionOptions.resetTimeoutOnProgress = true;
      connectionOptions.onProgress = (progress) => onProgress(toSourceProgress(progress));
    }
    return this.#request(
      () => this.#session.callTool(name, args, connectionOptions),
      options.signal,
    );
  }

  /** {@inheritDoc Source.readResource} */
  readResource(uri: string, options: SourceRequestOptions = {}): Promise<ReadResourceResult> {
    return this.#request(
      () => this.#session.readResource(uri, requestOptions(options)),
      options.signal,
    );
  }

  /** {@inheritDoc Source.listResources} */
  async listResources(
    cursor?: string,
    options: SourceRequestOptions = {},
  ): Promise<ListResourcesResult> {
    if (cursor !== undefined) {
      return this.#request(
        () => this.#session.listResources(cursor, requestOptions(options)),
        options.signal,
      );
    }
    const resources = await this.#allPages("resources/list", (page) =>
      this.#session.listResources(page, requestOptions(options)).then((result) => ({
        items: result.resources,
        nextCursor: result.nextCursor,
      })),
    );
    return { resources };
  }

  /** {@inheritDoc Source.listResourceTemplates} */
  async listResourceTemplates(
    cursor?: string,
    options: SourceRequestOptions = {},
  ): Promise<ListResourceTemplatesResult> {
    if (cursor !== undefined) {
      return this.#request(
        () => this.#session.listResourceTemplates(cursor, requestOptions(options)),
        options.signal,
      );
    }
    const resourceTemplates = await this.#allPages("resources/templates/list", (page) =>
      this.#session.listResourceTemplates(page, requestOptions(options)).then((result) => ({
        items: result.resourceTemplates,
        nextCursor: result.nextCursor,
      })),
    );
    return { resourceTemplates };
  }

  /** {@inheritDoc Source.onToolsChanged} */
  onToolsChanged(listener: () => void): () => void {
    this.#toolsListeners.add(listener);
    return () => this.#toolsListeners.delete(listener);
  }

  /** {@inheritDoc Source.onClose} */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** {@inheritDoc Source.close} Closes the session too. */
  async close(): Promise<void> {
    await this.#session.close();
    this.#ended();
  }

  async #allPages<Item>(
    method: string,
    fetchPage: (
      cursor: string | undefined,
    ) => Promise<{ items: Item[]; nextCursor?: string | undefined }>,
  ): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await this.#request(() => fetchPage(cursor));
      items.push(...result.items);
      cursor = result.nextCursor;
      if (cursor === undefined) return items;
    }
    throw new SourceError(
      "protocol",
      `${this.key} kept sending more pages of ${method} after ${MAX_LIST_PAGES}; the server's paging is broken.`,
    );
  }

  async #request<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#closed) {
      throw new SourceError(
        "closed",
        `The connection to ${this.key} is closed; open the source again.`,
      );
    }
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted === true) {
        throw new SourceError("cancelled", `The request to ${this.key} was cancelled.`, {
          cause: error,
        });
      }
      throw this.#translate(error);
    }
  }

  #translate(error: unknown): SourceError {
    if (error instanceof SourceError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const code =
      typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === "server_error") {
      const rpcCode = (error as { rpcCode?: unknown }).rpcCode;
      return new SourceError("protocol", message, {
        cause: error,
        ...(typeof rpcCode === "number" ? { rpcCode } : {}),
      });
    }
    const mapped = typeof code === "string" ? CONNECTION_CODES[code] : undefined;
    return new SourceError(mapped ?? "unavailable", message, { cause: error });
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#tools = undefined;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    this.#toolsListeners.clear();
    for (const listener of listeners) listener();
  }
}

function requestOptions(options: SourceRequestOptions): ConnectionRequestOptions {
  const result: ConnectionRequestOptions = {};
  if (options.signal !== undefined) result.signal = options.signal;
  if (options.timeout !== undefined) result.timeout = options.timeout;
  return result;
}

function toSourceProgress(progress: {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}): SourceProgress {
  const result: SourceProgress = { progress: progress.progress };
  if (progress.total !== undefined) result.total = progress.total;
  if (progress.message !== undefined) result.message = progress.message;
  return result;
}
