import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import { connectionFailure } from "./connection-error";
import { requestOptions, type ConnectionSession } from "./connection-session";
import { cancelledSourceError, closedSourceError, noPromptsError } from "./request-error";
import { InsufficientScopeError } from "@modelcontextprotocol/client";
import { SignInRequired } from "../oauth/sign-in-errors";
import { SourceError } from "./source-error";
import { SourceListeners } from "./source-listeners";
import { toSourceProgress } from "./source-progress";
import type { Source, SourceCallOptions, SourceRequestOptions, SourceTool } from "./source";
import { toSourceTool } from "./tool-metadata";

/** How many pages of a list a source follows before deciding the server is looping. */
export const MAX_LIST_PAGES = 64;

/** Options of {@link ConnectionSource}. */
export interface ConnectionSourceOptions {
  /** The source key; the session's server name when omitted. */
  key?: string;
}

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
  readonly #listeners = new SourceListeners();
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
          this.#listeners.toolsChanged();
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

  /** {@inheritDoc Source.listPrompts} */
  async listPrompts(
    cursor?: string,
    options: SourceRequestOptions = {},
  ): Promise<ListPromptsResult> {
    if (!this.#offersPrompts()) return { prompts: [] };
    if (cursor !== undefined) {
      return this.#request(
        () => this.#session.listPrompts(cursor, requestOptions(options)),
        options.signal,
      );
    }
    const prompts = await this.#allPages("prompts/list", (page) =>
      this.#session.listPrompts(page, requestOptions(options)).then((result) => ({
        items: result.prompts,
        nextCursor: result.nextCursor,
      })),
    );
    return { prompts };
  }

  /** {@inheritDoc Source.getPrompt} */
  getPrompt(
    name: string,
    args: Record<string, string>,
    options: SourceRequestOptions = {},
  ): Promise<GetPromptResult> {
    if (!this.#offersPrompts()) return Promise.reject(noPromptsError(this.key));
    return this.#request(
      () => this.#session.getPrompt(name, args, requestOptions(options)),
      options.signal,
    );
  }

  /** {@inheritDoc Source.onToolsChanged} */
  onToolsChanged(listener: () => void): () => void {
    return this.#listeners.onToolsChanged(listener);
  }

  /** {@inheritDoc Source.onClose} */
  onClose(listener: () => void): () => void {
    return this.#listeners.onClose(listener);
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

  /** Whether the server declared prompts; a session that does not say is asked anyway. */
  #offersPrompts(): boolean {
    const capabilities = this.#session.serverCapabilities;
    return capabilities === undefined || capabilities.prompts !== undefined;
  }

  async #request<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#closed) throw closedSourceError(this.key);
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted === true) {
        throw cancelledSourceError(this.key, error);
      }
      const stepUp = insufficientScopeIn(error);
      if (stepUp !== undefined) {
        // The server wants a wider scope than the person granted: they connect again to grant it.
        const needed = new SignInRequired(this.key, "scope", stepUp.requiredScope);
        throw new SourceError("unavailable", needed.message, { cause: needed });
      }
      throw connectionFailure(error);
    }
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#tools = undefined;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#listeners.closed();
  }
}

/** A 403 `insufficient_scope` down an error's cause chain (the transport's step-up challenge). */
function insufficientScopeIn(error: unknown): InsufficientScopeError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current instanceof Error; depth += 1) {
    if (current instanceof InsufficientScopeError) return current;
    current = current.cause;
  }
  return undefined;
}
