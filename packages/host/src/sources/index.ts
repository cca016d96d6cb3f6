// Sources: where a chat's apps come from. In-process apps (McpApp), remote servers (mcpClient),
// configured servers (configSourceFactory over @mcp-chat-host/connection), all behind one Source
// interface, plus the helpers that read a tool's view metadata and a view's page.
export type {
  Source,
  SourceCallOptions,
  SourceFactory,
  SourceKind,
  SourceProgress,
  SourceRequestOptions,
  SourceTool,
} from "./source";
export { SourceError, isSourceError } from "./source-error";
export type { SourceErrorCode } from "./source-error";
export {
  LEGACY_RESOURCE_URI_KEY,
  TOOL_FAILED_TEXT,
  isVisibleTo,
  modelValue,
  resultText,
  toSourceTool,
  toolDisplayTitle,
  toolHasView,
  toolResourceUri,
  toolVisibility,
} from "./tool-metadata";
export type { ModelValue, ToolAudience } from "./tool-metadata";
export { readViewResource } from "./view-resource";
export type { ViewResource, ViewResourceMeta } from "./view-resource";
export { ClientSource, HOST_CLIENT_CAPABILITIES, HOST_CLIENT_INFO } from "./client-source";
export type { ClientSourceOptions, OpenedTransport } from "./client-source";
export { McpApp, appResourceUri, appTool } from "./mcp-app";
export type {
  McpAppOptions,
  McpAppSourceOptions,
  McpAppTool,
  McpAppToolExtra,
  ZodRawShape,
} from "./mcp-app";
export { McpClient, MCP_CLIENT_TOOLS_TTL_MS, defaultClientName, mcpClient } from "./mcp-client";
export type { McpClientHeaderValues, McpClientHeaders, McpClientOptions } from "./mcp-client";
export { ConnectionSource, MAX_LIST_PAGES } from "./connection-source";
export type {
  ConnectionRequestOptions,
  ConnectionSession,
  ConnectionSourceOptions,
} from "./connection-source";
export { configSourceFactory } from "./config-source";
export { requestErrorToSourceError } from "./request-error";
