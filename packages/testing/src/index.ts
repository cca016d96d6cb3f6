// HTTP-level stand-ins for the model providers the host talks to: OpenAI Chat Completions,
// OpenAI Responses and Anthropic Messages, on one local server, for tests only.
export {
  startProviderStandIn,
  type ProviderStandIn,
  type ProviderStandInOptions,
} from "./provider-stand-in";
export { defaultResponder, callCommandPattern } from "./default-responder";
export type { Fault, FaultTarget } from "./fault";
export type {
  FaultReply,
  ReplyUsage,
  Responder,
  ResponderResult,
  ScriptedReply,
  ScriptedToolCall,
} from "./scripted-reply";
export type {
  ProviderApiName,
  RequestView,
  ViewMessage,
  ViewToolCall,
  ViewToolResult,
} from "./request-view";
export {
  messageRolesOf,
  recordedHeaderNames,
  toolNamesOf,
  type RecordedRequest,
} from "./recorded-request";
export type { AuthState } from "./provider-api";
export {
  startRedis,
  pingRedis,
  type RedisOptions,
  type RunningRedis,
} from "./servers/redis-server";
export {
  startBalancer,
  type BalancerBackend,
  type BalancerOptions,
  type RunningBalancer,
} from "./servers/balancer";
export { spawnTied, freePort, type TiedProcess } from "./servers/tied-process";
export {
  startPostgres,
  findPostgresBinaries,
  type PostgresOptions,
  type RunningPostgres,
} from "./servers/postgres-server";
export {
  startOidcProvider,
  type OidcProviderOptions,
  type OidcTestAccount,
  type OidcTestClient,
  type RunningOidcProvider,
} from "./servers/oidc-provider";
export {
  startTraceCollector,
  type CollectedSpan,
  type CollectedValue,
  type TraceCollector,
} from "./servers/trace-collector";
export {
  startOAuthAuthorizationServer,
  type OAuthAuthorizationServerOptions,
  type OAuthServerFaults,
  type OAuthTestClient,
  type OAuthTestResource,
  type RunningOAuthAuthorizationServer,
} from "./servers/oauth-authorization-server";
export type { RevocationRecord, TokenRequestRecord } from "./servers/oauth-provider-middleware";
export {
  startProtectedMcpServer,
  type ProtectedMcpServerOptions,
  type RejectedRequest,
  type RunningProtectedMcpServer,
} from "./servers/protected-mcp-server";
export type { RejectionReason, TokenIssuer } from "./servers/bearer-token-check";
export type { ProtectedToolCall } from "./servers/protected-mcp-tools";
export { signInWithFetch, type SignInWithFetchOptions } from "./servers/sign-in-with-fetch";
export { signInThroughTransport } from "./servers/oauth-test-client";
