/**
 * The mcp-chat-host engine: `createHostServer` (sessions, chats, cards, the context relay, app
 * messages, the `onAppCall` gate, the model runner, the store, and the Express + socket.io server),
 * `mcpChatHost` to give a chat's model the tools of MCP Apps, in-process `McpApp`s, remote
 * `mcpClient()` sources, and ready-made `policies`.
 *
 * Only what an embedder configures or receives is exported (the command line in `apps/server`,
 * the benchmarks and the browser tests use nothing else); the machinery behind it (the gate's
 * chain, the approval broker, the model runner, the stores' classes, the connection layer's
 * classes) is imported by path inside this package only.
 */

// Server and sessions
export { createHostServer } from "./create-host-server";
export { defaultSession, hostOptionsFromConfig } from "./default-session";
export type { HostServer, HostServerOptions } from "./host-server-options";
export type { MetricsOptions } from "./server/metrics-setup";
export { MetricsListenerError } from "./telemetry/metrics-listener-error";
export { CredentialSealError } from "./oauth/credential-seal";
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
export type { AppCall, AppCallSession, AppCallVerdict, OnAppCall } from "./gate/app-call-gate";
export { policies, PolicyConfigError, parseAppCallRules } from "./gate/policies";
export type { AppCallRule, AppCallRules, AppCallRulesInput } from "./gate/policies";

// The context relay and app messages
export { APP_CONTEXT_HEADER, buildAppContext } from "./context/context-relay";
export type { ContextCard } from "./context/context-relay";
export type { AppMessageMode } from "./session/chat";

// Sources
export { McpApp, appTool, appResourceUri } from "./sources/mcp-app";
export type { McpAppOptions, McpAppTool, McpAppToolExtra } from "./sources/mcp-app";
export { mcpClient } from "./sources/mcp-client";
export type { McpClient, McpClientOptions } from "./sources/mcp-client";
export { SourceError, isSourceError } from "./sources/source-error";
export type { Source, SourceFactory, SourceTool } from "./sources/source";

// The model
export { ModelSelectionError } from "./model/model-selection";

// The store
export { openStore } from "./store/open-store";
export { securePrivateFolder, writePrivateFile } from "./store/private-files";
export type { ModeChange } from "./store/private-files";
export { openAuditReader } from "./audit/audit-reader";
export type { AuditFilter, AuditReader } from "./audit/audit-reader";
export { StoreError, isStoreError } from "./store/store-error";
export { ClusterStartError, type ClusterDependency } from "./cluster/cluster-start-error";
export type * from "./store/host-store";

// The connection layer, re-exported for operators who configure the host in code
export {
  configureServerBox,
  loadMcpConfig,
  parseMcpConfig,
  ProcessLedger,
  serverBoxModes,
  ServerBoxUnavailableError,
} from "@mcp-chat-host/connection";
export type {
  ServerBoxMode,
  ServerBoxSettings,
  ServerBoxStatus,
  McpConfig,
  McpServerConfig,
  ProcessLedgerOptions,
  ReapReport,
} from "@mcp-chat-host/connection";
