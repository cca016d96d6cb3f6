import { idSchema, limits } from "@mcp-chat-host/protocol";
import {
  loadMcpConfig,
  parseMcpConfig,
  effectiveShareMode,
  type McpConfig,
} from "@mcp-chat-host/connection";
import type { LanguageModel } from "ai";
import { pino, type Logger } from "pino";
import type { ChatHostOptions } from "./session/chat";
import { AuditLog } from "./audit/audit-log";
import { ClusterNode } from "./cluster/cluster-node";
import { ClusterStartError, redactUrl, withoutCredentials } from "./cluster/cluster-start-error";
import { resolveNodeId } from "./cluster/node-identity";
import type { RoutedSocket } from "./cluster/tab-router";
import { policies } from "./gate/policies";
import { mcpChatHost } from "./mcp-chat-host";
import { DEFAULT_TOOL_RESULT_LIMIT } from "./sources/capped-result";
import { toWireError } from "./errors/to-wire-error";
import { describeModel, resolveModel } from "./model/model-selection";
import { createHttpLayer, type HttpLayer, type HttpLayerOptions } from "./server/http-layer";
import { RateLimiter } from "./page-calls/rate-limit";
import { SessionRegistry, type SessionFunction } from "./session-registry";
import type { SessionServices } from "./session/session-services";
import { ProcessSources, type ConfiguredSources } from "./session/session-sources";
import { bindSessionEvents } from "./socket/socket-handlers";
import { liveViewsFromConfig } from "./live-views-config";
import { defaultPageCallRate, pageCallsFromConfig } from "./page-calls-config";
import { configSourceFactory } from "./sources/config-source";
import type { SourceFactory } from "./sources/source";
import type { HostStore } from "./store/host-store";
import { openStore } from "./store/open-store";
import { tracedStore } from "./telemetry/traced-store";
import { measuredStore } from "./telemetry/measured-store";
import { type MetricsOptions, setUpMetrics } from "./server/metrics-setup";
import { startTracing, type RunningTracing } from "./telemetry/tracing";
import { postgresStartRefusal } from "./store/postgres-errors";

/** Options of {@link createHostServer}. */
export interface HostServerOptions extends Omit<HttpLayerOptions, "logger" | "toWireError"> {
  /** The `mcpServers` file (a path), or its parsed content. None: no configured servers. */
  config?: string | McpConfig | Record<string, unknown> | null;
  /** The model: `offline` (default), `anthropic:<id>`, `openai:<id>`, `openai-compatible:<url>#<id>`, or an AI SDK model. */
  model?: string | LanguageModel;
  /**
   * The store: `sqlite:<path>` (default `sqlite:./data/mcp-chat-host.db`), `:memory:`,
   * `postgres://…` (several nodes share it), or a store.
   */
  store?: string | HostStore;
  /** This node's id in a cluster (default: `$NODE_ID`, else generated; logged at start). */
  nodeId?: string;
  /** Redis for what crosses nodes (default `$REDIS_URL`); none: one node. */
  redisUrl?: string;
  /**
   * Whether the node keeps a lease in the database, so only a dead node's replies are
   * interrupted (default: with Redis or a `postgres://` store). Without one, every reply left
   * `streaming` is interrupted at start, as a lone server does.
   */
  leases?: boolean;
  /** How long a node's lease lasts without a heartbeat, in ms (default 15,000). */
  leaseTtlMs?: number;
  /** How long `drain()` lets running replies finish before they are interrupted, in seconds (default 30). */
  drainTimeout?: number;
  /**
   * Runs once per session (browser tab) to build its chats with `session.chat()` and
   * `mcpChatHost()`. Default: one chat with every configured server and the config's `host` section.
   */
  session?: SessionFunction;
  /** Structured logs (default: pino at `info` to stdout). */
  logger?: Logger;
  /** How long a tab may be gone before its session ends, in ms (default 60,000). */
  sessionGraceMs?: number;
  /**
   * Page tool calls allowed per card: sustained per second and burst (default: the config's
   * `host.pageCalls`, else 20 and 40). A card's resource requests (read, list, templates list) get
   * a bucket of their own of the same size.
   */
  pageCallRate?: { perSecond?: number; burst?: number };
  /** How long a model's tool call may run, in seconds (default 300). */
  toolTimeout?: number;
  /**
   * The most characters of JSON of a tool result the host stores, sends to the browser and gives
   * the model (default 200,000); a longer result keeps the start of its text and says it was cut.
   */
  toolResultLimit?: number;
  /**
   * How long the model may send nothing (before its first token or between two chunks) before the
   * request is given up and the reply fails saying so, in seconds (default 60).
   */
  modelStallTimeout?: number;
  /** Environment for `${VAR}` in the config file and for model keys (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The clock (ms since the epoch); for tests. */
  now?: () => number;
  /** Prometheus metrics at `GET /metrics` (see docs/deployment.md); none: off. */
  metrics?: MetricsOptions;
  /**
   * A PEM file of the CA that signed the Postgres server's certificate: the URL's `sslrootcert`
   * (with `sslmode=verify-full` unless the URL sets a mode). Default none.
   */
  databaseCaFile?: string;
  /** A PEM file of the CA that signed Redis's certificate, for a `rediss://` URL. Default none. */
  redisCaFile?: string;
}

/** A running (or ready to run) host. */
export interface HostServer {
  /** Starts listening; returns the port and the host's origin. */
  listen(options?: { port?: number; host?: string }): Promise<{ port: number; url: string }>;
  /** Stops: ends every session, closes shared sources (no child process left), the store and the listeners. */
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM): `/readyz` fails and no new connection is accepted, running
   * replies may finish for up to `timeoutSeconds` (default `drainTimeout`), then the rest are
   * marked interrupted and the server closes.
   */
  drain(timeoutSeconds?: number): Promise<void>;
  /** This node's id. */
  readonly nodeId: string;
  /** The host's origin, the one-time sign-in URL, and sandbox origins. */
  readonly urls: HttpLayer["urls"];
  /** Mints a new one-time sign-in URL (token auth). */
  signInUrl(): string;
  /** Mints a new one-time sign-in URL, resolving once every node of the cluster accepts it. */
  mintSignInUrl(): Promise<string>;
  /** The store (after `listen()`). */
  readonly store: HostStore;
  /** The model's description, for logs (no keys). */
  readonly modelName: string;
  /** The parsed configuration, once loaded. */
  readonly config: McpConfig | null;
  /** The metrics listener's scrape URL (`--metrics-port`), once listening; none without one. */
  readonly metricsUrl: string | undefined;
  /** @internal the HTTP layer (routes, io) */
  readonly http: HttpLayer;
  /** @internal live sessions */
  readonly sessions: SessionRegistry;
}

/**
 * Opens the store a specification names; a database that cannot be reached is a start refusal
 * that says so.
 */
async function openNamedStore(
  spec: string,
  logger: Logger,
  caFile: string | undefined,
): Promise<HostStore> {
  try {
    return await openStore(spec, { logger, ...(caFile === undefined ? {} : { caFile }) });
  } catch (error) {
    if (!/^postgres(ql)?:/i.test(spec)) throw error;
    // The sentence names the setting to check; the driver's text (with the server's address) is
    // for the log only, its credentials taken out.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    logger.error(
      {
        database: redactUrl(spec),
        detail: withoutCredentials(cause instanceof Error ? cause.message : String(cause), spec),
      },
      "the database could not be opened",
    );
    throw new ClusterStartError("database", postgresStartRefusal(error), { cause: error });
  }
}

/** The store's database as the traces' `db.system.name` says it. */
function storeSystem(store: HostServerOptions["store"]): string {
  if (typeof store === "object") return "other_sql";
  return /^postgres(ql)?:/i.test(store ?? "") ? "postgresql" : "sqlite";
}

/** The default session: one chat with every configured server, using the config's `host` section. */
export function defaultSession(config: McpConfig | null): SessionFunction {
  return (session) => {
    const chat = session.chat();
    const names = Object.keys(config?.servers ?? {});
    if (names.length > 0) mcpChatHost(chat, names, hostOptionsFromConfig(config));
  };
}

/**
 * The chat host options in a config file's `host` section: `messages`, `context`, and `onAppCall`
 * rules (`{ default, rules }`, see `policies.rules`). Without `onAppCall` rules, the annotation
 * policy applies (read-only allowed; destructive, open-world or unannotated asks the person).
 *
 * @throws {PolicyConfigError} for malformed rules.
 */
export function hostOptionsFromConfig(config: McpConfig | null): ChatHostOptions {
  const section = (config?.host ?? {}) as Record<string, unknown>;
  const options: ChatHostOptions = {
    onAppCall:
      section["onAppCall"] === undefined
        ? policies.annotations()
        : policies.rules(section["onAppCall"] as never),
  };
  if (section["messages"] !== undefined)
    options.messages = section["messages"] as ChatHostOptions["messages"] & string;
  if (section["context"] !== undefined) options.context = section["context"] === true;
  return options;
}

/**
 * Builds the host server (docs/architecture.md, "The embedding API"): the store, the model, the
 * configured MCP servers, sessions built by your session function, and the Express + socket.io
 * server with its security. Nothing starts before `listen()`.
 *
 * @throws {ModelSelectionError} for an unknown model spec or a missing key.
 */
export function createHostServer(options: HostServerOptions = {}): HostServer {
  const logger = options.logger ?? pino({ level: process.env["LOG_LEVEL"] ?? "info" });
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const modelSpec = options.model ?? env["MODEL"] ?? "offline";
  const model = resolveModel(modelSpec, env);
  const modelName = describeModel(modelSpec);
  const maxPayloadBytes = options.maxHttpBufferSize ?? limits.maxPayloadBytes;
  const telemetry = setUpMetrics(options.metrics, logger);
  // The transport takes up to twice the cap, so a payload over the cap gets a `too_large` answer
  // from its event handler instead of socket.io dropping the whole connection.
  const http = createHttpLayer({
    ...options,
    maxHttpBufferSize: maxPayloadBytes * 2,
    logger,
    toWireError,
    metricsRoute: telemetry.route,
    readiness: async () => (node === null ? { ok: false } : { ...(await node.readiness(store)) }),
  });
  const processSources = new ProcessSources(logger);
  let config: McpConfig | null = null;
  let store: HostStore | null = null;
  let sessions: SessionRegistry | null = null;
  let node: ClusterNode | null = null;
  let tracing: RunningTracing | null = null;
  const nodeId = resolveNodeId(options.nodeId ?? env["NODE_ID"]);
  const redisUrl = options.redisUrl ?? (env["REDIS_URL"] || undefined);
  const storeSpec = typeof options.store === "string" ? options.store : undefined;
  const leases =
    options.leases ?? (redisUrl !== undefined || /^postgres(ql)?:/i.test(storeSpec ?? ""));
  const factories = new Map<string, { factory: SourceFactory; shared: boolean }>();
  const configured: ConfiguredSources = {
    names: () => [...factories.keys()],
    factory: (name) => factories.get(name),
  };

  async function loadConfig(): Promise<McpConfig | null> {
    const input = options.config;
    if (input === undefined || input === null) return null;
    if (typeof input === "string") return loadMcpConfig(input, { env });
    if ("servers" in input && typeof input["servers"] === "object") return input as McpConfig;
    return parseMcpConfig(input, { env });
  }

  const server: HostServer = {
    async listen(listenOptions = {}) {
      config = await loadConfig();
      const liveViews = liveViewsFromConfig(config);
      // The code's `pageCallRate` wins over the file's `host.pageCalls`, field by field.
      const pageCalls = pageCallsFromConfig(config) ?? defaultPageCallRate;
      const limiter = new RateLimiter({
        ratePerSecond: options.pageCallRate?.perSecond ?? pageCalls.perSecond,
        burst: options.pageCallRate?.burst ?? pageCalls.burst,
      });
      for (const entry of Object.values(config?.servers ?? {})) {
        factories.set(entry.name, {
          factory: configSourceFactory(entry, {
            timeout: entry.timeout ?? 60,
          }),
          shared: effectiveShareMode(entry) === "process",
        });
      }
      // Before the store: its writes are spans once tracing runs (OTEL_EXPORTER_OTLP_ENDPOINT).
      tracing = await startTracing({ env, nodeId, logger });
      const opened = tracedStore(
        measuredStore(
          typeof options.store === "object"
            ? options.store
            : await openNamedStore(
                options.store ?? "sqlite:./data/mcp-chat-host.db",
                logger,
                options.databaseCaFile,
              ),
          telemetry.metrics,
        ),
        storeSystem(options.store),
      );
      let cluster: ClusterNode;
      try {
        cluster = await ClusterNode.start(
          http.io,
          {
            nodeId,
            redisUrl,
            leases,
            leaseTtlMs: options.leaseTtlMs,
            redisCaFile: options.redisCaFile,
          },
          logger,
        );
      } catch (error) {
        await opened.close();
        throw error;
      }
      node = cluster;
      const audit = new AuditLog(opened, { logger });
      // Everyone outside the engine sees a store whose audit includes what is still queued; the
      // sessions' store also carries the node's part in the cluster (see `clusterStore`).
      store = audit.storeView();
      const sessionStore = cluster.wrapStore(store);
      await cluster.startReplies(store);
      if (leases) await http.shareTokens(store);
      // OpenID Connect sign-ins in progress live in the store on one node as on several.
      http.shareSignInStates(store);
      const services: SessionServices = {
        store: sessionStore,
        audit,
        model,
        modelName,
        ...(liveViews === undefined ? {} : { liveViews }),
        ...(options.auth?.mode === "oidc" ? { signOut: true } : {}),
        logger,
        configured,
        processSources,
        sandboxFor: (source, meta, pageHost) =>
          http.urls.sandboxPlacement(source, pageHost, {
            csp: meta.csp,
            permissions: meta.permissions,
          }),
        takePageCall: (key) => limiter.take(key).ok,
        now,
        toolTimeout: options.toolTimeout ?? 300,
        toolResultLimit: options.toolResultLimit ?? DEFAULT_TOOL_RESULT_LIMIT,
        modelStallTimeoutMs: (options.modelStallTimeout ?? 60) * 1_000,
        metrics: telemetry.metrics,
      };
      const registry = new SessionRegistry(services, options.session ?? defaultSession(config), {
        graceMs: options.sessionGraceMs ?? 60_000,
        logger,
      });
      sessions = registry;
      http.io.on("connection", (socket) => {
        const { user, sessionId } = socket.data;
        const auth = socket.handshake.auth as Record<string, unknown> | undefined;
        const tab = idSchema.safeParse(auth?.["tabId"]);
        const key = `${sessionId}:${tab.success ? tab.data : "tab"}`;
        const ready = registry.obtain(key, user);
        const routed = ready.then((session) => {
          // One router per session: a conversation's events reach every tab showing it through
          // the conversation's room, on whichever node, also while this tab reconnects.
          const router = cluster.routerFor(session);
          session.pageHost = socket.handshake.headers.host;
          router.attach(socket as unknown as RoutedSocket);
          session.connect(router.emit);
          return router;
        });
        routed.catch(() => undefined);
        ready.then(
          () => undefined,
          (error: unknown) => {
            logger.error({ err: error }, "the session function failed");
            socket.emit("notice", {
              level: "error",
              message: "This session could not start; the server log says why.",
            });
            socket.disconnect(true);
          },
        );
        // Keep an unhandled rejection from crashing the process; handlers report it per request.
        ready.catch(() => undefined);
        bindSessionEvents(socket, ready, logger, { maxBytes: maxPayloadBytes });
        socket.on("card:teardown", (payload: unknown) => {
          routed
            .then((router) => router.closedHere(socket as unknown as RoutedSocket, payload))
            .catch(() => undefined);
        });
        socket.on("disconnect", () => {
          routed
            .then((router) => router.detach(socket as unknown as RoutedSocket))
            .catch(() => undefined);
          registry.release(key);
        });
      });
      const address = await http.listen(listenOptions);
      const metricsUrl = await telemetry
        .start({
          sessions: () => registry.size,
          sockets: () => http.io.of("/").sockets.size,
          readiness: () => cluster.readiness(store),
        })
        .catch(async (error: unknown) => {
          await server.close();
          throw error;
        });
      if (metricsUrl !== undefined) logger.info({ url: metricsUrl }, "Serving metrics.");
      logger.info({ url: address.url, model: modelName }, "mcp-chat-host is listening");
      return address;
    },
    async close() {
      await sessions?.endAll();
      await processSources.closeAll();
      await http.close();
      await telemetry.close();
      // After the sockets: the lease is given up (this node's replies interrupted), then Redis.
      await node?.close();
      await store?.close();
      // Last: the spans of everything above are exported before the process may exit.
      await tracing?.shutdown();
    },
    async drain(timeoutSeconds) {
      const seconds = timeoutSeconds ?? options.drainTimeout ?? 30;
      node?.startDraining();
      http.stopAccepting();
      const finished = (await node?.repliesFinished(seconds * 1_000)) ?? true;
      logger.info(
        { finished },
        finished
          ? "every reply finished; stopping"
          : "stopping; replies still being written are marked interrupted",
      );
      node?.markStopping();
      await server.close();
    },
    nodeId,
    get urls() {
      return http.urls;
    },
    signInUrl: () => http.signInUrl(),
    mintSignInUrl: () => http.mintSignInUrl(),
    get store() {
      if (!store) throw new Error("The store is opened by listen().");
      return store;
    },
    modelName,
    get config() {
      return config;
    },
    get metricsUrl() {
      return telemetry.url;
    },
    http,
    get sessions() {
      if (!sessions) throw new Error("Sessions start with listen().");
      return sessions;
    },
  };
  return server;
}
