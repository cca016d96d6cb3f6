import { InMemoryTransport } from "@modelcontextprotocol/client";
import type {
  McpUiResourceCsp,
  McpUiResourceMeta,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/server";
import type { CallToolResult, ServerContext, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ClientSource } from "./client-source";
import { SourceError } from "./source-error";
import type { Source, SourceFactory } from "./source";
import type { ToolAudience } from "./tool-metadata";

/** A zod 4 object shape (`{ city: z.string() }`) describing a tool's arguments or structured result. */
export type ZodRawShape = Record<string, z.ZodType>;

/** What an {@link McpAppTool} handler gets besides its arguments. */
export interface McpAppToolExtra {
  /** Aborted when the caller cancels the call (the person stopped the turn, the card closed). */
  signal: AbortSignal;
  /**
   * State of this server instance, shared by every call made through the same source and fresh for
   * each {@link McpApp.source}: the place for per-conversation state (cart, draft, counter).
   */
  state: Record<string, unknown>;
  /**
   * Reports progress to the caller; does nothing when the caller did not ask for progress.
   *
   * @param progress - progress so far; must increase with every call.
   * @param total - the total, when known.
   * @param message - a short human-readable message.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
}

/** One tool of an {@link McpApp}. */
export interface McpAppTool<Shape extends ZodRawShape = ZodRawShape> {
  /** Unique within the app: 1-128 letters, digits, `_`, `-` or `.`. */
  name: string;
  /** Display title. */
  title?: string;
  /** What the tool does, for the model. */
  description: string;
  /** The arguments, as a zod object shape; none when omitted. */
  inputSchema?: Shape;
  /** The shape of `structuredContent`, when the tool returns one. */
  outputSchema?: ZodRawShape;
  /** Hints for the host's checks (read-only, destructive, idempotent, open world). */
  annotations?: ToolAnnotations;
  /** Who may call the tool; both the model and the app's page when omitted. */
  visibility?: ToolAudience[];
  /** Whether a call shows the app's page (a card); default true. */
  view?: boolean;
  /**
   * Runs the tool. A thrown error becomes a result with `isError: true` and the error's message.
   *
   * @param args - the arguments, checked against `inputSchema`.
   * @param extra - cancellation signal and progress reporting.
   * @returns the MCP result: `content`, and optionally `structuredContent`.
   */
  handler(
    args: z.infer<z.ZodObject<Shape>>,
    extra: McpAppToolExtra,
  ): CallToolResult | Promise<CallToolResult>;
}

/**
 * Declares one tool with its argument types inferred from `inputSchema`, for use in
 * {@link McpAppOptions.tools} (an array literal alone types the handler's arguments loosely).
 *
 * @returns the same tool.
 */
export function appTool<Shape extends ZodRawShape>(tool: McpAppTool<Shape>): McpAppTool {
  return tool as unknown as McpAppTool;
}

/** Options of {@link McpApp}. */
export interface McpAppOptions {
  /** The app's name: its source key, and the host of its page's URI (`ui://<name>`). */
  name: string;
  /** Display title of the app and of its page resource. */
  title?: string;
  /** The app's version, reported to the host. Default "1.0.0". */
  version?: string;
  /** The page: an HTML document, or a function giving one (called at every read). */
  html: string | (() => string | Promise<string>);
  /** Origins the page may reach (CSP); none when omitted. */
  csp?: McpUiResourceCsp;
  /** Browser features the page asks for. */
  permissions?: McpUiResourcePermissions;
  /** Whether the page wants the host to draw a border and background. */
  prefersBorder?: boolean;
  /** The app's tools. */
  tools: McpAppTool[];
}

/** Options of {@link McpApp.source}. */
export interface McpAppSourceOptions {
  /** Seconds to wait for each answer of the in-process server. Default 60. */
  timeout?: number;
  /** Called with errors the connection reports outside any request. */
  onError?: (error: Error) => void;
}

/** Tool names as the MCP SDK checks them (SEP-986). */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_APP_NAME_LENGTH = 128;
// The name sits in the URI's authority, so every character outside RFC 3986's "unreserved" set
// is encoded: "/", "?", "#", ":" or "@" would otherwise change what the URI means.
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The URI of an app's page: `ui://<name>`, with every character of the name outside RFC 3986's
 * unreserved set percent-encoded as UTF-8.
 *
 * @returns the URI, in the form `new URL()` gives back unchanged.
 */
export function appResourceUri(name: string): string {
  let encoded = "";
  for (const character of name) {
    encoded += UNRESERVED.test(character)
      ? character
      : [...new TextEncoder().encode(character)]
          .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
          .join("");
  }
  return `ui://${encoded}`;
}

function invalid(message: string): SourceError {
  return new SourceError("invalid_options", message);
}

function checkShape(shape: unknown, where: string): void {
  if (shape === undefined) return;
  if (typeof shape !== "object" || shape === null || Array.isArray(shape)) {
    throw invalid(`${where} must be a zod object shape, such as { city: z.string() }.`);
  }
  for (const [key, value] of Object.entries(shape)) {
    if (!(value instanceof z.ZodType)) {
      throw invalid(`${where}.${key} must be a zod schema, such as z.string().`);
    }
  }
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

function checkOptions(options: McpAppOptions): void {
  const { name } = options;
  if (
    typeof name !== "string" ||
    name.trim() === "" ||
    name.length > MAX_APP_NAME_LENGTH ||
    hasControlCharacter(name)
  ) {
    throw invalid(
      `An McpApp needs a name: a non-empty string of at most ${MAX_APP_NAME_LENGTH} characters without control characters.`,
    );
  }
  if (typeof options.html !== "string" && typeof options.html !== "function") {
    throw invalid(
      `The app "${name}" needs \`html\`: an HTML document, or a function returning one.`,
    );
  }
  if (options.prefersBorder !== undefined && typeof options.prefersBorder !== "boolean") {
    throw invalid(`\`prefersBorder\` of the app "${name}" must be true or false.`);
  }
  if (!Array.isArray(options.tools)) {
    throw invalid(`\`tools\` of the app "${name}" must be an array (it may be empty).`);
  }
  const seen = new Set<string>();
  for (const tool of options.tools) {
    const toolName: unknown = tool?.name;
    if (typeof toolName !== "string" || !TOOL_NAME_PATTERN.test(toolName)) {
      throw invalid(
        `The app "${name}" has a tool named ${JSON.stringify(toolName)}; tool names are 1-128 letters, digits, "_", "-" or ".".`,
      );
    }
    if (seen.has(toolName)) {
      throw invalid(
        `Tool names must be unique within an app; "${toolName}" is used twice in the app "${name}".`,
      );
    }
    seen.add(toolName);
    if (typeof tool.description !== "string") {
      throw invalid(
        `The tool "${toolName}" of the app "${name}" needs a description for the model.`,
      );
    }
    if (typeof tool.handler !== "function") {
      throw invalid(`The tool "${toolName}" of the app "${name}" needs a handler function.`);
    }
    checkShape(tool.inputSchema, `inputSchema of "${toolName}"`);
    checkShape(tool.outputSchema, `outputSchema of "${toolName}"`);
    if (
      tool.visibility !== undefined &&
      !(
        Array.isArray(tool.visibility) &&
        tool.visibility.every((entry) => entry === "model" || entry === "app")
      )
    ) {
      throw invalid(
        `\`visibility\` of the tool "${toolName}" must be an array of "model" and "app".`,
      );
    }
  }
}

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
    for (const tool of this.tools) this.#registerTool(server, tool, state);
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

  #registerTool(server: McpServer, tool: McpAppTool, state: Record<string, unknown>): void {
    const config = {
      description: tool.description,
      inputSchema: z.object(tool.inputSchema ?? {}),
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(tool.outputSchema === undefined ? {} : { outputSchema: z.object(tool.outputSchema) }),
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
