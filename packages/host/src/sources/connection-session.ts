import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  ServerCapabilities,
} from "@modelcontextprotocol/client";
import type { SourceRequestOptions } from "./source";

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
  /** Who makes the request (see `SourceRequestOptions.caller`). */
  caller?: unknown;
}

/**
 * What `ConnectionSource` (of `./connection-source`) needs of a live MCP session: the shape of `McpClientSession`
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
  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: ConnectionRequestOptions): Promise<ListPromptsResult>;
  /** Gets a prompt (`prompts/get`). */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: ConnectionRequestOptions,
  ): Promise<GetPromptResult>;
  /** The server's capabilities from `initialize` (undefined when not known). */
  readonly serverCapabilities?: ServerCapabilities | undefined;
  /** Ends the session. */
  close(): Promise<void>;
  /** Registers a listener for the end of the session; returns its remover. */
  onClose(listener: () => void): () => void;
  /** Registers a listener for `notifications/tools/list_changed`, when the session relays them. */
  onToolsChanged?(listener: () => void): () => void;
}

/** A source request's signal, timeout and caller, as the options of a {@link ConnectionSession} request. */
export function requestOptions(options: SourceRequestOptions): ConnectionRequestOptions {
  const result: ConnectionRequestOptions = {};
  if (options.signal !== undefined) result.signal = options.signal;
  if (options.timeout !== undefined) result.timeout = options.timeout;
  if (options.caller !== undefined) result.caller = options.caller;
  return result;
}
