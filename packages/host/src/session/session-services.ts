import type { LanguageModel } from "ai";
import type { Logger } from "pino";
import type { ViewResourceMeta } from "../sources/view-resource";
import type { AuditLog } from "../audit/audit-log";
import type { HostStore } from "../store/host-store";
import type { ServerSignIn } from "../oauth/server-sign-in";
import type { HostMetrics } from "../telemetry/host-metrics";
import type { ConnectorPolicy } from "./connector-policy";
import type { ConfiguredSources, ProcessSources } from "./session-sources";

/** Where a card's view is shown: its source's sandbox origin and the proxy page URL there. */
export interface SandboxPlacement {
  origin: string;
  proxyUrl: string;
}

/**
 * The kinds of request a card's page makes of the host, each with budgets of its own: a page
 * that lists its resources doesn't eat into its tool calls, and a flood of any kind is refused
 * like a flood of calls.
 */
export type PageRequestKind = "tools" | "resources" | "context" | "messages" | "logs";

/** Whose budgets a page request spends from: its card's, its source's and its session's. */
export interface PageRequestOrigin {
  userId: string;
  sessionId: string;
  source: string;
  instanceId: string;
}

/** Which budget refused a request. */
export type PageLimitScope = "card" | "source" | "session";

/** The answer of {@link PageLimits.take}. */
export type PageLimitDecision =
  { ok: true } | { ok: false; scope: PageLimitScope; retryAfterMs: number; message: string };

/** The rate budgets of cards' page requests (`page-calls/page-request-limits.ts`). */
export interface PageLimits {
  /** Spends one request of a kind from its card's, source's and session's budgets, or none. */
  take(kind: PageRequestKind, origin: PageRequestOrigin): PageLimitDecision;
}

/** What every session of a server shares. */
export interface SessionServices {
  store: HostStore;
  /** Where page calls are audited (in batches). */
  audit: AuditLog;
  /** The model every chat talks to. */
  model: Exclude<LanguageModel, string>;
  /** The model's name, for the browser (never a key). */
  modelName: string;
  /** Most card views a tab keeps live at once (`host.liveViews`); absent: the page's default. */
  liveViews?: number;
  /** Whether people can sign out here (the OpenID Connect mode), told to the browser. */
  signOut?: boolean;
  logger: Logger;
  configured: ConfiguredSources;
  /** People's own sign-ins to remote MCP servers (absent: no configured server takes one). */
  serverSignIn?: ServerSignIn;
  /** What people may add as servers of their own (`host.connectors`); absent: nothing. */
  connectors?: ConnectorPolicy;
  processSources: ProcessSources;
  /**
   * Where a source's views are shown.
   *
   * @param source - the source key.
   * @param meta - the view's `_meta.ui` (its CSP and permissions go into the proxy URL).
   * @param pageHost - the `Host` the tab's page was served under, so the sandbox stays same-site.
   */
  sandboxFor(source: string, meta: ViewResourceMeta, pageHost?: string): Promise<SandboxPlacement>;
  /** The rate budgets of cards' page requests: per card, per source and per session, by kind. */
  pageLimits: PageLimits;
  /** The clock (ms since the epoch); injectable for tests. */
  now(): number;
  /** How long a server's question waits for the person before it is cancelled, in ms (default 5 minutes). */
  elicitationTimeoutMs?: number;
  /** How long a turn's tool call may run before it is cancelled, in seconds. */
  toolTimeout: number;
  /** The most characters of JSON of a tool result that are stored, shown and given to the model. */
  toolResultLimit: number;
  /** How long the model may send nothing before its request is given up, in ms. */
  modelStallTimeoutMs: number;
  /** Where the services report to the operator's metrics (a no-op when they are off). */
  metrics: HostMetrics;
}
