// The public shapes of shared connections (deputy's tools_mcp / load_mcp / mcp_status): what a
// load accepts and returns, the tool handles, and a connection's local status.
import type { Progress, CallToolResult } from "@modelcontextprotocol/client";
import type { McpConfig } from "./config/config-types";
import type { McpCloseReason } from "./connection-errors";
import type { McpClientSessionOptions } from "./mcp-client-session-types";
import type { ToolHandleBase } from "./tool-handle";

/** A configuration file path (`~` expanded), a loaded configuration, or a parsed JSON document. */
export type McpConfigInput = string | McpConfig | { mcpServers: unknown };

/** Options of one call through a shared tool handle. */
export interface SharedToolCallOptions {
  /** Aborting rejects the call with the signal's reason and tells the server; the connection stays. */
  signal?: AbortSignal;
  /** Receives the server's progress notifications. */
  onProgress?: (progress: Progress) => void;
  /** This call's deadline in seconds; past it the shared connection closes (reason `timeout`). */
  timeout?: number;
}

/** A callable handle for one tool of a shared connection. */
export interface SharedToolHandle extends ToolHandleBase {
  /** False once the server was loaded again or its shared connection was closed. */
  isCurrent(): boolean;
  /**
   * Calls the tool with the arguments supplied (undefined values are not sent). Calls from
   * several conversations may run at once.
   *
   * @throws McpSharedConnectionError (`stale` or `closed`) before sending; the session's errors
   *   after (`McpServerError`, `McpTimeoutError`, `McpDesynchronizedError`, ...).
   */
  call(args?: Record<string, unknown>, options?: SharedToolCallOptions): Promise<CallToolResult>;
}

/** Local state of one shared connection; making it sends nothing. */
export interface SharedConnectionStatus {
  server: string;
  connectionId: string;
  state: "starting" | "idle" | "busy" | "closed";
  reason: McpCloseReason | null;
  /** The stdio server's pid; undefined for remote servers. */
  processId: number | undefined;
  /** The names of the tools it offered when loaded. */
  tools: string[];
}

/** What {@link SharedConnections.load} loaded. */
export interface SharedLoadResult {
  /** The servers loaded, in order. */
  servers: string[];
  /** Their tools, server by server. */
  tools: SharedToolHandle[];
}

/** Options of {@link SharedConnections}. Times are in seconds. */
export interface SharedConnectionsOptions {
  /** Longest wait for each server to start. Default 60. */
  startupTimeout?: number;
  /** Default deadline of each request. Default: the entry's `timeout`, else 60. */
  timeout?: number;
  /** Client identity, capabilities, stderr and error sinks passed to each session. */
  session?: Pick<
    McpClientSessionOptions,
    "clientInfo" | "capabilities" | "onStderr" | "onError" | "cwd"
  >;
}
