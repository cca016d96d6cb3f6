/**
 * The mcp-chat-host engine: `createHostServer` (sessions, chats, cards, the context relay, app
 * messages, the `onAppCall` gate, the model runner, the store, and the Express + socket.io server),
 * `mcpChatHost` to give a chat's model the tools of MCP Apps, in-process `McpApp`s, remote
 * `mcpClient()` sources, and ready-made `policies`.
 */

// Server and sessions
export { createHostServer } from "./create-host-server";
export { defaultSession, hostOptionsFromConfig } from "./default-session";
export type { HostServer, HostServerOptions } from "./host-server-options";
export type { MetricsOptions } from "./server/metrics-setup";
export { MetricsListenerError } from "./telemetry/metrics-listener-error";
export type { Session } from "./session/session";
export type { BuiltContext, SessionUser } from "./session/session-context";
export type { SessionFunction } from "./session-registry";
export type { SourceSpec } from "./session/session-sources";
export { HostError } from "./host-error";
export type { SandboxPortMemory } from "./server/sandbox-listeners";
export type { AuthOptions, HostUser } from "./server/auth";
export { oidcUserId, type OidcOptions } from "./server/oidc-options";

// Chats and chat hosts
export { mcpChatHost } from "./mcp-chat-host";
export { mcpContentResult } from "./mcp-content-result";
export { Chat } from "./session/chat";
export type {
  ChatHostHandle,
  ChatHostOptions,
  ChatOptions,
  OnToolRequest,
  ToolPermissions,
  ToolRequest,
} from "./session/chat";
export type { ShowCardOptions } from "./session/session";

// The gate on page calls, approvals and policies
export {
  UNCHECKED_RESTORED_CARD_REFUSAL,
  appCallVerdict,
  assembleHookChain,
  defaultRefusal,
  runAppCallChain,
} from "./gate/app-call-gate";
export type { AppCall, AppCallSession, AppCallVerdict, OnAppCall } from "./gate/app-call-gate";
export { policies, PolicyConfigError, parseAppCallRules } from "./gate/policies";
export type { AppCallRule, AppCallRules, AppCallRulesInput } from "./gate/policies";
export { ApprovalBroker } from "./gate/approval-broker";
export { SESSION_ENDED_REFUSAL } from "./gate/approval-types";

// The context relay and app messages
export { APP_CONTEXT_HEADER, buildAppContext, withAppContext } from "./context/context-relay";
export type { ContextCard } from "./context/context-relay";
export { reportText } from "./context/report-text";
export { appMessageText, routeAppMessage } from "./app-messages/app-message";
export type { AppMessageMode } from "./session/chat";

// Sources
export { McpApp, appTool, appResourceUri } from "./sources/mcp-app";
export type { McpAppOptions, McpAppTool, McpAppToolExtra } from "./sources/mcp-app";
export { McpClient, mcpClient, defaultClientName } from "./sources/mcp-client";
export type { McpClientOptions } from "./sources/mcp-client";
export { configSourceFactory } from "./sources/config-source";
export { SourceError, isSourceError } from "./sources/source-error";
export type { Source, SourceFactory, SourceTool } from "./sources/source";
export { modelValue, toolHasView, toolResourceUri, isVisibleTo } from "./sources/tool-metadata";

// The model
export { createOfflineModel } from "./model/offline-model";
export { describeModel, resolveModel } from "./model/model-selection";
export { runTurn } from "./model/model-runner";
export type { HostTool } from "./model/host-tool";
export type { TurnEvent, TurnResult } from "./model/turn-events";

// The store
export { openStore } from "./store/open-store";
export { securePrivateFolder, writePrivateFile } from "./store/private-files";
export type { ModeChange } from "./store/private-files";
export { SqliteStore } from "./store/sqlite-store";
export { openAuditReader } from "./audit/audit-reader";
export type { AuditFilter, AuditReader } from "./audit/audit-reader";
export { StoreError, isStoreError } from "./store/store-error";
export { ClusterStartError, type ClusterDependency } from "./cluster/cluster-start-error";
export type * from "./store/host-store";

// The connection layer, re-exported for operators who configure the host in code
export {
  McpConnection,
  McpClientSession,
  toolsMcp,
  loadMcpConfig,
  parseMcpConfig,
  checkToolPermission,
  effectiveAnnotations,
  ProcessLedger,
} from "@mcp-chat-host/connection";
export type {
  McpConfig,
  McpServerConfig,
  ProcessLedgerOptions,
  ReapReport,
} from "@mcp-chat-host/connection";
