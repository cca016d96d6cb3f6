import { limits } from "@mcp-chat-host/protocol";
import {
  loadMcpConfig,
  parseMcpConfig,
  effectiveShareMode,
  type McpConfig,
} from "@mcp-chat-host/connection";
import { pino } from "pino";
import { AuditLog } from "./audit/audit-log";
import { ClusterNode } from "./cluster/cluster-node";
import { resolveNodeId } from "./cluster/node-identity";
import { defaultSession } from "./default-session";
import type { HostServer, HostServerOptions } from "./host-server-options";
import { DEFAULT_TOOL_RESULT_LIMIT } from "./sources/capped-result";
import { toWireError } from "./errors/to-wire-error";
import { describeModel, resolveModel } from "./model/model-selection";
import { openNamedStore, storeSystem } from "./named-store";
import { createHttpLayer } from "./server/http-layer";
import { PageRequestLimits, pageRequestRates } from "./page-calls/page-request-limits";
import { SessionRegistry } from "./session-registry";
import type { SessionServices } from "./session/session-services";
import { ProcessSources, type ConfiguredSources } from "./session/session-sources";
import { acceptTabs } from "./socket/tab-connection";
import { liveViewsFromConfig } from "./live-views-config";
import {
  defaultPageCallRate,
  pageCallsFromConfig,
  type PageCallsConfig,
} from "./page-calls-config";
import { configSourceFactory } from "./sources/config-source";
import { routeElicitation } from "./elicitation/elicitation-routing";
import { elicitationTimeoutMs as elicitationTimeoutFrom } from "./elicitation/elicitation-timeout";
import type { SourceFactory } from "./sources/source";
import type { HostStore } from "./store/host-store";
import { tracedStore } from "./telemetry/traced-store";
import { measuredStore } from "./telemetry/measured-store";
import { setUpMetrics } from "./server/metrics-setup";
import { startTracing, type RunningTracing } from "./telemetry/tracing";
import { signInEntry } from "./oauth/sign-in-eligibility";
import { wireServerSignIn, type SignInWiring } from "./servers/sign-in-wiring";
import { connectorsFromConfig } from "./servers/connectors-config";

/** The socket server's cross-node side (its server-side events), for the sign-in news. */
interface ServerSideEvents {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  serverSideEmit(event: string, ...args: unknown[]): unknown;
}

/**
 * Builds the host server (docs/architecture.md, "The embedding API"): the store, the model, the
 * configured MCP servers, sessions built by your session function, and the Express + socket.io
 * server with its security. Nothing starts before `listen()`.
 *
 * @throws {ModelSelectionError} for an unknown model spec or a missing key.
 * @throws {Error} for an `elicitationTimeout` (or `ELICITATION_TIMEOUT`) that is not a number of
 *   seconds above 0.
 */
export function createHostServer(options: HostServerOptions = {}): HostServer {
  const logger = options.logger ?? pino({ level: process.env["LOG_LEVEL"] ?? "info" });
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const modelSpec = options.model ?? env["MODEL"] ?? "offline";
  const model = resolveModel(modelSpec, env);
  const modelName = describeModel(modelSpec);
  const elicitationTimeoutMs = elicitationTimeoutFrom(
    options.elicitationTimeout,
    env["ELICITATION_TIMEOUT"],
  );
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
  let signInWiring: SignInWiring | undefined;
  const configured: ConfiguredSources = {
    names: () => [...factories.keys()],
    entry: (name) => config?.servers[name],
    factory: (name, userId) => {
      const found = factories.get(name);
      const entry = signInEntry(config?.servers[name]);
      if (found === undefined || entry === undefined || signInWiring === undefined) return found;
      // The person's own connection, with their bearer: never shared with anyone else.
      const authProvider = signInWiring.signIn.bearer(userId, entry);
      return {
        factory: configSourceFactory(entry, {
          timeout: entry.timeout ?? 60,
          authProvider,
          onElicitation: routeElicitation(logger),
        }),
        shared: false,
      };
    },
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
      const connectors = connectorsFromConfig(config);
      // The code's `pageCallRate` wins over the file's `host.pageCalls`, field by field.
      const pageCalls: PageCallsConfig = pageCallsFromConfig(config) ?? defaultPageCallRate;
      const code = options.pageCallRate;
      const pageLimits = new PageRequestLimits(
        pageRequestRates(
          {
            perSecond: code?.perSecond ?? pageCalls.perSecond,
            burst: code?.burst ?? pageCalls.burst,
          },
          {
            source: code?.perSource ?? pageCalls.perSource,
            session: code?.perSession ?? pageCalls.perSession,
          },
        ),
      );
      for (const entry of Object.values(config?.servers ?? {})) {
        factories.set(entry.name, {
          factory: configSourceFactory(entry, {
            timeout: entry.timeout ?? 60,
            onElicitation: routeElicitation(logger),
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
      try {
        signInWiring = wireServerSignIn({
          config,
          store,
          connectors: connectors !== undefined,
          credentialKeys: options.oauthCredentialKeys ?? env["OAUTH_CREDENTIAL_KEYS"],
          allowLoopback: options.oauthAllowLoopback,
          origin: () => http.urls.host,
          cluster: redisUrl === undefined ? null : (http.io as unknown as ServerSideEvents),
          sessionsOf: (userId) => sessions?.sessionsOf(userId) ?? [],
          logger,
          now,
        });
      } catch (error) {
        // Unusable sealing keys stop the start: give back what was opened for it.
        await server.close();
        throw error;
      }
      if (signInWiring !== undefined) http.useServerSignIn(signInWiring.routes);
      const services: SessionServices = {
        store: sessionStore,
        audit,
        model,
        modelName,
        ...(liveViews === undefined ? {} : { liveViews }),
        ...(options.auth?.mode === "oidc" ? { signOut: true } : {}),
        logger,
        configured,
        ...(signInWiring === undefined ? {} : { serverSignIn: signInWiring.signIn }),
        ...(connectors === undefined ? {} : { connectors }),
        processSources,
        sandboxFor: (source, meta, pageHost) =>
          http.urls.sandboxPlacement(source, pageHost, {
            csp: meta.csp,
            permissions: meta.permissions,
          }),
        pageLimits,
        now,
        toolTimeout: options.toolTimeout ?? 300,
        elicitationTimeoutMs,
        toolResultLimit: options.toolResultLimit ?? DEFAULT_TOOL_RESULT_LIMIT,
        modelStallTimeoutMs: (options.modelStallTimeout ?? 60) * 1_000,
        metrics: telemetry.metrics,
      };
      const registry = new SessionRegistry(services, options.session ?? defaultSession(config), {
        graceMs: options.sessionGraceMs ?? 60_000,
        logger,
      });
      sessions = registry;
      acceptTabs(http.io, { registry, cluster, logger, maxPayloadBytes });
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
