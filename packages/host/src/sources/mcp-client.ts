import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { ClientSource } from "./client-source";
import { SourceError } from "./source-error";
import type { Source, SourceFactory } from "./source";

/** Header names and values sent with every request. */
export type McpClientHeaderValues = Record<string, string>;

/**
 * Headers for every request to the server (such as `Authorization`): fixed values, or a function
 * called before each request, so a token can be refreshed.
 */
export type McpClientHeaders =
  McpClientHeaderValues | (() => McpClientHeaderValues | Promise<McpClientHeaderValues>);

/** Options of {@link mcpClient}. */
export interface McpClientOptions {
  /** Headers for every request; they go wherever `url` points, so use https:// for secrets. */
  headers?: McpClientHeaders;
  /**
   * The source's name, unique among a chat's sources. Saved conversations refer to the server's
   * apps by it, so keep it stable. Default: the URL without scheme, query, fragment or trailing "/".
   */
  name?: string;
  /** Seconds to wait for each answer. Default 60. */
  timeout?: number;
}

/** How long a listed tool set stays fresh when the server gives no `ttlMs`: a minute. */
const MCP_CLIENT_TOOLS_TTL_MS = 60_000;

/**
 * The default name of a remote server: its URL without scheme, without `?…`/`#…`, and without
 * trailing slashes (`https://example.com/mcp/?a=1` → `example.com/mcp`).
 */
export function defaultClientName(url: string): string {
  return url
    .replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, "")
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "");
}

function isHeaderRecord(value: unknown): value is McpClientHeaderValues {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === "string")
  );
}

const HEADERS_MESSAGE =
  "`headers` must be an object of header names and string values, or a function returning one.";

/**
 * A remote MCP server reached over Streamable HTTP, made by {@link mcpClient}. Each
 * {@link McpClient.open} gives a new connection (its own session on the server).
 */
export class McpClient implements SourceFactory {
  /** The server's MCP endpoint. */
  readonly url: string;
  /** The source key: the `name` option, or {@link defaultClientName} of the URL. */
  readonly key: string;
  /** Seconds to wait for each answer. */
  readonly timeout: number;
  /** Always `connection`. */
  readonly kind = "connection" as const;
  readonly #headers: McpClientHeaders | undefined;

  /**
   * @param url - the server's endpoint, `http://` or `https://`.
   * @param options - see {@link McpClientOptions}.
   * @throws {SourceError} `invalid_options` for a bad URL, headers, name or timeout.
   */
  constructor(url: string, options: McpClientOptions = {}) {
    if (typeof url !== "string" || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new SourceError("invalid_options", "`url` must be an http:// or https:// URL.");
    }
    const { headers, name, timeout = 60 } = options;
    if (headers !== undefined && typeof headers !== "function" && !isHeaderRecord(headers)) {
      throw new SourceError("invalid_options", HEADERS_MESSAGE);
    }
    if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
      throw new SourceError("invalid_options", "`timeout` must be a positive number of seconds.");
    }
    if (name !== undefined && (typeof name !== "string" || name.trim() === "")) {
      throw new SourceError("invalid_options", "`name` must be a non-empty string.");
    }
    const key = name ?? defaultClientName(url);
    if (key === "") {
      throw new SourceError(
        "invalid_options",
        `The URL ${url} gives no default name; pass \`name\`.`,
      );
    }
    this.url = url;
    this.key = key;
    this.timeout = timeout;
    this.#headers = headers;
  }

  /**
   * Opens a source for this server. Nothing is sent until its first request, which connects
   * (trying `server/discover`, then `initialize`) and declares the MCP Apps extension.
   *
   * @returns the source, not yet connected.
   */
  async open(): Promise<Source> {
    return new ClientSource({
      key: this.key,
      kind: "connection",
      timeout: this.timeout,
      toolsTtlMs: MCP_CLIENT_TOOLS_TTL_MS,
      versionNegotiation: { mode: "auto" },
      openTransport: async () => {
        const transport = new StreamableHTTPClientTransport(new URL(this.url), {
          fetch: this.#fetch(),
        });
        return {
          transport,
          // Ends the server's session (HTTP DELETE) when there is one; servers that keep none answer 405.
          shutdown: async () => {
            if (transport.sessionId !== undefined) await transport.terminateSession();
          },
        };
      },
    });
  }

  /** A fetch that adds the configured headers; the protocol's own headers win over them. */
  #fetch(): FetchLike {
    const configured = this.#headers;
    return async (input, init) => {
      const extra = typeof configured === "function" ? await configured() : configured;
      if (extra !== undefined && !isHeaderRecord(extra))
        throw new SourceError("invalid_options", HEADERS_MESSAGE);
      const headers = new Headers(extra);
      new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
      return fetch(input, { ...init, headers });
    };
  }
}

/**
 * Describes a remote MCP server reached over Streamable HTTP, as a source for
 * `mcpChatHost()`. Lazy: nothing is sent before first use.
 *
 * @param url - the server's MCP endpoint, such as `https://example.com/mcp`.
 * @param options - headers, name and timeout.
 * @returns a source factory the host opens per conversation.
 * @throws {SourceError} `invalid_options` for a URL that is not http(s), headers that are neither
 *   an object of strings nor a function, an empty name, or a timeout that is not positive.
 */
export function mcpClient(url: string, options: McpClientOptions = {}): McpClient {
  return new McpClient(url, options);
}
