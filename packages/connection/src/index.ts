/**
 * The MCP client side of mcp-chat-host: the `mcpServers` configuration file, `McpConnection`
 * (one owned, allowlisted connection with deputy's semantics), `McpClientSession` (the transport,
 * process-tree and desynchronisation layer beneath it, also used by the host for its sources),
 * shared connections (`toolsMcp`), permissions from tool annotations, the process ledger that
 * stops the stdio servers a crashed run left behind, and the box each stdio server runs in.
 */
export * from "./config/config-types";
export { McpConfigError } from "./config/config-error";
export * from "./config/load-config";
export * from "./config/parse-config";
export * from "./config/select-servers";
export * from "./connection-errors";
export * from "./mcp-capability-tools";
export * from "./mcp-client-session";
export * from "./mcp-client-session-types";
export * from "./mcp-connection";
export type * from "./mcp-connection-types";
export * from "./mcp-connection-validation";
export * from "./permissions";
export * from "./process-ledger";
export type { ProcessIdentity, ProcessLabel } from "./process-tree";
export {
  configureServerBox,
  serverBoxModes,
  ServerBoxUnavailableError,
  type ServerBoxMode,
  type ServerBoxSettings,
  type ServerBoxStatus,
} from "./server-box";
export * from "./shared-connection-error";
export * from "./shared-connection-types";
export * from "./shared-connections";
export type { ToolHandleBase } from "./tool-handle";
export * from "./tool-registry";
export * from "./tools-mcp";
