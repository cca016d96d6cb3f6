import { InMemoryTransport } from "@modelcontextprotocol/client";
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/server";
import type { ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { appResourceUri } from "./app-resource-uri";
import { ClientSource } from "./client-source";
import { checkOptions } from "./mcp-app-checks";
import type {
  McpAppOptions,
  McpAppSourceOptions,
  McpAppTool,
  McpAppToolExtra,
} from "./mcp-app-types";
import { SourceError } from "./source-error";
import type { Source, SourceFactory } from "./source";

export { appResourceUri } from "./app-resource-uri";
export { appTool } from "./mcp-app-types";
export type { McpAppOptions, McpAppTool, McpAppToolExtra } from "./mcp-app-types";

function toolExtra(context: ServerContext, state: Record<string, unknown>): McpAppToolExtra {
  return {
    signal: context.mcpReq.signal,
    state,
    async sendProgress(progress, total, message) {
      const progressToken = context.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await context.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
  };
}

/** A tool with its zod objects. */
interface ToolSchemas {
  tool: McpAppTool;
  input: z.ZodObject;
  output: z.ZodObject | undefined;
}

/**
 * An in-process MCP App: a page and its tools, served by an MCP server in this process and
 * reached over the SDK's in-memory transport. Built with ext-apps' `registerAppTool` and
 * `registerAppResource`, so it looks to the host exactly like a remote app server.
 *
 * @example
 * ```ts
 * const notes = new McpApp({
 *   name: "notes",
 *   html: "<!doctype html>...",
 *   tools: [{ name: "show-notes", description: "Show the notes", handler: () => ({ content: [] }) }],
 * });
 * ```
 */
export class McpApp implements SourceFactory {
  /** The app's name. */
  readonly name: string;
  /** The app's display title, when given. */
  readonly title: string | undefined;
  /** The app's version. */
  readonly version: string;
  /** The URI of the app's page (`ui://<name>`, percent-encoded). */
  readonly resourceUri: string;
  /** The tools as given. */
  readonly tools: readonly McpAppTool[];
  /** Always `app`. */
  readonly kind = "app" as const;
  readonly #options: McpAppOptions;
  /**
   * Each tool's zod objects, built once: every server (one per session) registers the same
   * immutable schemas, so their objects and compiled parsers are not made again per session.
   */
  readonly #toolSchemas: readonly ToolSchemas[];

  /**
   * @param options - see {@link McpAppOptions}.
   * @throws {SourceError} `invalid_options` for a missing or bad name, a duplicate or invalid tool
   *   name, a tool without description or handler, or a schema that is not a zod object shape.
   */
  constructor(options: McpAppOptions) {
    checkOptions(options);
    this.#options = options;
    this.name = options.name;
    this.title = options.title;
    this.version = options.version ?? "1.0.0";
    this.resourceUri = appResourceUri(options.name);
    this.tools = [...options.tools];
    this.#toolSchemas = this.tools.map((tool) => ({
      tool,
      input: z.object(tool.inputSchema ?? {}),
      output: tool.outputSchema === undefined ? undefined : z.object(tool.outputSchema),
    }));
  }

  /** The source key of this app: its name. */
  get key(): string {
    return this.name;
  }

  /**
   * Builds a fresh MCP server with the app's tools and its `ui://` page registered. Each call gives
   * a new server, so each conversation can have its own.
   *
   * @returns the server, not yet connected.
   */
  createServer(): McpServer {
    const server = new McpServer({
      name: this.name,
      version: this.version,
      ...(this.title === undefined ? {} : { title: this.title }),
    });
    const resourceMeta = this.#resourceMeta();
    registerAppResource(
      server,
      this.title ?? this.name,
      this.resourceUri,
      {
        description: `The page of ${this.title ?? this.name}.`,
        ...(resourceMeta === undefined ? {} : { _meta: { ui: resourceMeta } }),
      },
      async () => ({
        contents: [
          {
            uri: this.resourceUri,
            mimeType: RESOURCE_MIME_TYPE,
            text: await this.#html(),
            ...(resourceMeta === undefined ? {} : { _meta: { ui: resourceMeta } }),
          },
        ],
      }),
    );
    const state: Record<string, unknown> = {};
    for (const schemas of this.#toolSchemas) this.#registerTool(server, schemas, state);
    return server;
  }

  /**
   * Opens a source on a new server instance joined over a fresh in-memory transport pair, declaring
   * the MCP Apps extension, and lists its tools (so {@link Source.cachedTools} is ready).
   *
   * @returns the connected source.
   * @throws {SourceError} when the in-process server fails to start.
   */
  async source(options: McpAppSourceOptions = {}): Promise<Source> {
    const source = new ClientSource({
      key: this.name,
      kind: "app",
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
      openTransport: async () => {
        const server = this.createServer();
        const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
        await server.connect(serverTransport);
        return { transport: clientTransport, shutdown: () => server.close() };
      },
    });
    try {
      await source.tools();
    } catch (error) {
      await source.close();
      throw error;
    }
    return source;
  }

  /** {@inheritDoc SourceFactory.open} Same as {@link McpApp.source} with default options. */
  open(): Promise<Source> {
    return this.source();
  }

  async #html(): Promise<string> {
    const html = this.#options.html;
    const value = typeof html === "function" ? await html() : html;
    if (typeof value !== "string") {
      throw new SourceError(
        "invalid_view",
        `The html function of the app "${this.name}" must return a string.`,
      );
    }
    return value;
  }

  #resourceMeta(): McpUiResourceMeta | undefined {
    const meta: McpUiResourceMeta = {};
    const { csp, permissions, prefersBorder } = this.#options;
    if (csp !== undefined) meta.csp = csp;
    if (permissions !== undefined) meta.permissions = permissions;
    if (prefersBorder !== undefined) meta.prefersBorder = prefersBorder;
    return Object.keys(meta).length === 0 ? undefined : meta;
  }

  #registerTool(server: McpServer, schemas: ToolSchemas, state: Record<string, unknown>): void {
    const { tool } = schemas;
    const config = {
      description: tool.description,
      inputSchema: schemas.input,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(schemas.output === undefined ? {} : { outputSchema: schemas.output }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    };
    const visibility = tool.visibility === undefined ? {} : { visibility: [...tool.visibility] };
    const callback = (args: Record<string, unknown>, context: ServerContext) =>
      tool.handler(args, toolExtra(context, state));
    if (tool.view === false) {
      server.registerTool(
        tool.name,
        { ...config, ...(tool.visibility === undefined ? {} : { _meta: { ui: visibility } }) },
        callback,
      );
      return;
    }
    registerAppTool(
      server,
      tool.name,
      { ...config, _meta: { ui: { resourceUri: this.resourceUri, ...visibility } } },
      callback,
    );
  }
}
