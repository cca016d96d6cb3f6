// The public shapes of McpConnection: its options, status, provenance and tool handles.
import type {
  CallToolResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Progress,
} from "@modelcontextprotocol/client";
import type { McpConfig } from "./config/config-types";
import type { McpCloseReason } from "./connection-errors";
import type { McpClientSessionOptions } from "./mcp-client-session-types";
import type { McpOwner } from "./mcp-connection-validation";
import type { ToolHandleBase } from "./tool-handle";

/** Options of `McpConnection`. Times are in seconds. */
export interface McpConnectionOptions {
  /** A configuration file path (`~` expanded), or a configuration already loaded or parsed. */
  config: string | McpConfig | { mcpServers: unknown };
  /** The exact configured server name. */
  server: string;
  /** Who the connection belongs to; handles refuse every other owner. */
  owner: McpOwner;
  /** Exact tool names the host allows. Empty by default. */
  tools?: readonly string[];
  /** Exact resource URIs the host allows. Empty by default. */
  resources?: readonly string[];
  /** Exact prompt names the host allows. Empty by default. */
  prompts?: readonly string[];
  /** Longest wait for each request; past it the connection closes. Default: the entry's, else 60. */
  timeout?: number;
  /** Longest wait for the server to start and initialize. Default 60. */
  startupTimeout?: number;
  /** Client identity, stderr and error sinks passed to the session. */
  session?: Pick<
    McpClientSessionOptions,
    "clientInfo" | "capabilities" | "onStderr" | "onError" | "cwd"
  >;
}

/** `starting` → `idle` ⇄ `busy` → `closed`. */
export type McpConnectionState = "starting" | "idle" | "busy" | "closed";

/** The fixed allowlists. */
export interface McpAllowlists {
  tools: readonly string[];
  resources: readonly string[];
  prompts: readonly string[];
}

/** Local state of a connection; making it sends nothing. */
export interface McpConnectionStatus {
  connectionId: string;
  server: string;
  owner: Readonly<McpOwner>;
  state: McpConnectionState;
  reason: McpCloseReason | null;
  allowed: McpAllowlists;
}

/** Where a result came from. */
export interface McpSource {
  type: "mcp";
  server: string;
  connectionId: string;
  /** The JSON-RPC method that produced it. */
  operation: string;
}

/** A server result with its provenance. */
export interface McpProvenanced<Result> {
  source: McpSource;
  result: Result;
}

/** Options of a call made through a handle, as its owner. */
export interface McpCallOptions {
  /** The caller's owner record; it must equal the connection's. */
  owner: McpOwner;
  /** Aborting rejects the call with the signal's reason and tells the server. */
  signal?: AbortSignal;
  /** Receives the server's progress notifications. The deadline is not extended by them. */
  onProgress?: (progress: Progress) => void;
}

/** A callable handle for one allowed tool, bound to its connection and owner. */
export interface McpToolHandle extends ToolHandleBase {
  owner: Readonly<McpOwner>;
  /**
   * Whether the handle's connection is still open. False once it was cancelled, closed, timed
   * out, lost synchronisation or its server died; `ToolRegistry` then drops the handle as stale.
   * Local: nothing is sent.
   */
  isCurrent(): boolean;
  /**
   * Calls the tool with the arguments supplied (undefined values are not sent).
   *
   * @throws McpOwnerMismatchError, McpBusyError, McpClosedError before sending; the
   *   connection's ended errors after.
   */
  call(args: Record<string, unknown> | undefined, options: McpCallOptions): Promise<CallToolResult>;
}

/** The page `discover()` returns for each catalogue kind. */
export interface McpCataloguePage {
  tools: ListToolsResult;
  resources: ListResourcesResult;
  resource_templates: ListResourceTemplatesResult;
  prompts: ListPromptsResult;
}
