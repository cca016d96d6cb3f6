import { Client } from "@modelcontextprotocol/client";
import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { ClientSourceOptions, OpenedTransport } from "./client-source-options";
import {
  cancelledSourceError,
  closedSourceError,
  noPromptsError,
  requestFailure,
} from "./request-error";
import { SourceError } from "./source-error";
import { SourceListeners } from "./source-listeners";
import { toSourceProgress } from "./source-progress";
import type {
  Source,
  SourceCallOptions,
  SourceKind,
  SourceRequestOptions,
  SourceTool,
} from "./source";
import { toSourceTool } from "./tool-metadata";

/** How this host introduces itself to MCP servers. */
const HOST_CLIENT_INFO = { name: "mcp-chat-host", version: "0.1.0" } as const;

/**
 * The client capabilities every source declares: it shows MCP Apps (MCP Apps spec,
 * "Client (Host) Capabilities"), so servers that check may offer their views.
 */
const HOST_CLIENT_CAPABILITIES = {
  extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
};

const DEFAULT_TIMEOUT_SECONDS = 60;

/**
 * A {@link Source} over the MCP SDK's `Client`: used for in-process apps (over the in-memory
 * transport) and for `mcpClient()` (over Streamable HTTP). It connects on first use, so nothing
 * is sent before the host needs the server.
 */
export class ClientSource implements Source {
  /** {@inheritDoc Source.key} */
  readonly key: string;
  /** {@inheritDoc Source.kind} */
  readonly kind: SourceKind;
  readonly #options: ClientSourceOptions;
  readonly #timeoutMs: number;
  #connecting: Promise<{ client: Client; opened: OpenedTransport }> | undefined;
  #client: Client | undefined;
  #opened: OpenedTransport | undefined;
  #tools: SourceTool[] | undefined;
  #toolsExpireAt = Infinity;
  /** Bumped when the list changes, so a listing that started earlier does not refill the cache. */
  #toolsGeneration = 0;
  #closed = false;
  readonly #listeners = new SourceListeners();

  /**
   * @param options - see {@link ClientSourceOptions}.
   * @throws {SourceError} `invalid_options` when the timeout is not a positive number.
   */
  constructor(options: ClientSourceOptions) {
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_SECONDS;
    if (!(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
      throw new SourceError("invalid_options", "`timeout` must be a positive number of seconds.");
    }
    this.key = options.key;
    this.kind = options.kind;
    this.#options = options;
    this.#timeoutMs = Math.round(timeout * 1000);
  }

  /** {@inheritDoc Source.closed} */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Connects now instead of at the first request.
   *
   * @throws {SourceError} when the server cannot be reached.
   */
  async connect(): Promise<void> {
    await this.#connected();
  }

  /** {@inheritDoc Source.tools} */
  async tools(options: { refresh?: boolean } & SourceRequestOptions = {}): Promise<SourceTool[]> {
    const cached = this.cachedTools();
    if (options.refresh !== true && cached !== undefined && this.#now() < this.#toolsExpireAt)
      return cached;
    const generation = this.#toolsGeneration;
    const result = await this.#request<ListToolsResult>(options, (client, requestOptions) =>
      // Without a cursor the SDK walks every page, capped at 64 pages.
      client.getServerCapabilities()?.tools === undefined
        ? Promise.resolve({ tools: [] })
        : client.listTools(undefined, { ...requestOptions, cacheMode: "bypass" }),
    );
    const tools = result.tools.map(toSourceTool);
    if (generation === this.#toolsGeneration && !this.#closed) {
      this.#tools = tools;
      const ttlMs = (result as { ttlMs?: unknown }).ttlMs;
      const lifetime = typeof ttlMs === "number" && ttlMs > 0 ? ttlMs : this.#options.toolsTtlMs;
      this.#toolsExpireAt = lifetime === undefined ? Infinity : this.#now() + lifetime;
    }
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
    return this.#request(options, (client, requestOptions) =>
      client.callTool(
        { name, arguments: args },
        onProgress === undefined
          ? requestOptions
          : {
              ...requestOptions,
              resetTimeoutOnProgress: true,
              onprogress: (progress) => onProgress(toSourceProgress(progress)),
            },
      ),
    );
  }

  /** {@inheritDoc Source.readResource} */
  readResource(uri: string, options: SourceRequestOptions = {}): Promise<ReadResourceResult> {
    return this.#request(options, (client, requestOptions) =>
      client.readResource({ uri }, { ...requestOptions, cacheMode: "bypass" }),
    );
  }

  /** {@inheritDoc Source.listResources} */
  listResources(cursor?: string, options: SourceRequestOptions = {}): Promise<ListResourcesResult> {
    return this.#request(options, (client, requestOptions) =>
      // A server without resources has none to list; asking would only make the SDK log a warning.
      client.getServerCapabilities()?.resources === undefined
        ? Promise.resolve({ resources: [] })
        : client.listResources(cursor === undefined ? undefined : { cursor }, {
            ...requestOptions,
            cacheMode: "bypass",
          }),
    );
  }

  /** {@inheritDoc Source.listResourceTemplates} */
  listResourceTemplates(
    cursor?: string,
    options: SourceRequestOptions = {},
  ): Promise<ListResourceTemplatesResult> {
    return this.#request(options, (client, requestOptions) =>
      client.getServerCapabilities()?.resources === undefined
        ? Promise.resolve({ resourceTemplates: [] })
        : client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, {
            ...requestOptions,
            cacheMode: "bypass",
          }),
    );
  }

  /** {@inheritDoc Source.listPrompts} */
  listPrompts(cursor?: string, options: SourceRequestOptions = {}): Promise<ListPromptsResult> {
    return this.#request(options, (client, requestOptions) =>
      client.getServerCapabilities()?.prompts === undefined
        ? Promise.resolve({ prompts: [] })
        : client.listPrompts(cursor === undefined ? undefined : { cursor }, {
            ...requestOptions,
            cacheMode: "bypass",
          }),
    );
  }

  /** {@inheritDoc Source.getPrompt} */
  getPrompt(
    name: string,
    args: Record<string, string>,
    options: SourceRequestOptions = {},
  ): Promise<GetPromptResult> {
    return this.#request(options, (client, requestOptions) => {
      if (client.getServerCapabilities()?.prompts === undefined) {
        throw noPromptsError(this.key);
      }
      return client.getPrompt({ name, arguments: args }, requestOptions);
    });
  }

  /** {@inheritDoc Source.onToolsChanged} */
  onToolsChanged(listener: () => void): () => void {
    return this.#listeners.onToolsChanged(listener);
  }

  /** {@inheritDoc Source.onClose} */
  onClose(listener: () => void): () => void {
    return this.#listeners.onClose(listener);
  }

  /** {@inheritDoc Source.close} */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const connecting = this.#connecting;
    this.#connecting = undefined;
    // A connection still being made is closed once it is up (see #open).
    const connection =
      connecting === undefined ? undefined : await connecting.catch(() => undefined);
    if (connection !== undefined) await this.#shutdown(connection.client, connection.opened);
    this.#notifyClosed();
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  async #shutdown(client: Client, opened: OpenedTransport): Promise<void> {
    try {
      await opened.shutdown?.();
    } catch (error) {
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
    await client.close();
  }

  #connected(): Promise<{ client: Client; opened: OpenedTransport }> {
    if (this.#closed) return Promise.reject(this.#closedError());
    this.#connecting ??= this.#open().catch((error: unknown) => {
      // A failed attempt is forgotten, so the next request tries again.
      this.#connecting = undefined;
      throw requestFailure(error, this.key, "connect");
    });
    return this.#connecting;
  }

  async #open(): Promise<{ client: Client; opened: OpenedTransport }> {
    const client = new Client(HOST_CLIENT_INFO, {
      capabilities: HOST_CLIENT_CAPABILITIES,
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.#toolsChanged() },
      },
      ...(this.#options.versionNegotiation === undefined
        ? {}
        : { versionNegotiation: this.#options.versionNegotiation }),
    });
    client.onerror = (error) => this.#options.onError?.(error);
    const opened = await this.#options.openTransport();
    client.onclose = () => this.#serverClosed(client);
    try {
      await client.connect(opened.transport, { timeout: this.#timeoutMs });
    } catch (error) {
      await this.#shutdown(client, opened).catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      // close() was called while connecting and is waiting for this attempt to end.
      await this.#shutdown(client, opened);
      throw this.#closedError();
    }
    this.#client = client;
    this.#opened = opened;
    return { client, opened };
  }

  async #request<T>(
    options: SourceRequestOptions,
    send: (client: Client, requestOptions: { timeout: number; signal?: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    const { client } = await this.#connected();
    const requestOptions: { timeout: number; signal?: AbortSignal } = {
      timeout: options.timeout === undefined ? this.#timeoutMs : Math.round(options.timeout * 1000),
    };
    if (options.signal !== undefined) requestOptions.signal = options.signal;
    try {
      return await send(client, requestOptions);
    } catch (error) {
      if (options.signal?.aborted === true) {
        throw cancelledSourceError(this.key, error);
      }
      if (this.#closed) throw this.#closedError(error);
      throw requestFailure(error, this.key, "request");
    }
  }

  #toolsChanged(): void {
    this.#toolsGeneration += 1;
    this.#tools = undefined;
    this.#listeners.toolsChanged();
  }

  #serverClosed(client: Client): void {
    // Only the live client's close matters; a client shut down after a failed connect is not news.
    if (client !== this.#client || this.#closed) return;
    this.#closed = true;
    this.#connecting = undefined;
    const shutdown = this.#opened?.shutdown;
    if (shutdown !== undefined) {
      shutdown().catch((error: unknown) =>
        this.#options.onError?.(error instanceof Error ? error : new Error(String(error))),
      );
    }
    this.#notifyClosed();
  }

  #notifyClosed(): void {
    this.#tools = undefined;
    this.#listeners.closed();
  }

  #closedError(cause?: unknown): SourceError {
    return closedSourceError(this.key, cause);
  }
}
