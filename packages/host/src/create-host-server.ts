import { idSchema, limits } from "@mcp-chat-host/protocol";
import {
  loadMcpConfig,
  parseMcpConfig,
  effectiveShareMode,
  type McpConfig,
} from "@mcp-chat-host/connection";
import type { LanguageModel } from "ai";
import { pino, type Logger } from "pino";
import type { ChatHostOptions } from "./chat/chat";
import { AuditLog } from "./audit/audit-log";
import { policies } from "./gate/policies";
import { mcpChatHost } from "./mcp-chat-host";
import { DEFAULT_TOOL_RESULT_LIMIT } from "./cards/capped-result";
import { toWireError } from "./errors/to-wire-error";
import { describeModel, resolveModel } from "./model/model-selection";
import { createHttpLayer, type HttpLayer, type HttpLayerOptions } from "./server/http-layer";
import { RateLimiter } from "./server/rate-limit";
import { SessionRegistry, type SessionFunction } from "./session/session-registry";
import type { SessionServices } from "./session/session-services";
import type { SessionEmitter } from "./session/host-session";
import { ProcessSources, type ConfiguredSources } from "./session/session-sources";
import { bindSessionEvents } from "./socket/socket-handlers";
import { configSourceFactory } from "./sources/config-source";
import type { SourceFactory } from "./sources/source";
import type { HostStore } from "./store/host-store";
import { openStore } from "./store/open-store";

/** Options of {@link createHostServer}. */
export interface HostServerOptions extends Omit<HttpLayerOptions, "logger" | "toWireError"> {
  /** The `mcpServers` file (a path), or its parsed content. None: no configured servers. */
  config?: string | McpConfig | Record<string, unknown> | null;
  /** The model: `offline` (default), `anthropic:<id>`, `openai:<id>`, `openai-compatible:<url>#<id>`, or an AI SDK model. */
  model?: string | LanguageModel;
  /** The store: `sqlite:<path>` (default `sqlite:./data/mcp-chat-host.db`), `:memory:`, or a store. */
  store?: string | HostStore;
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
   * Page tool calls allowed per card: sustained per second and burst (default 20 and 40). A card's
   * resource requests (read, list, templates list) get a bucket of their own of the same size.
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
}

/** A running (or ready to run) host. */
export interface HostServer {
  /** Starts listening; returns the port and the host's origin. */
  listen(options?: { port?: number; host?: string }): Promise<{ port: number; url: string }>;
  /** Stops: ends every session, closes shared sources (no child process left), the store and the listeners. */
  close(): Promise<void>;
  /** The host's origin, the one-time sign-in URL, and sandbox origins. */
  readonly urls: HttpLayer["urls"];
  /** Mints a new one-time sign-in URL (token auth). */
  signInUrl(): string;
  /** The store (after `listen()`). */
  readonly store: HostStore;
  /** The model's description, for logs (no keys). */
  readonly modelName: string;
  /** The parsed configuration, once loaded. */
  readonly config: McpConfig | null;
  /** @internal the HTTP layer (routes, io) */
  readonly http: HttpLayer;
  /** @internal live sessions */
  readonly sessions: SessionRegistry;
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
 * Builds the host server (DESIGN section 4): the store, the model, the configured MCP servers,
 * sessions built by your session function, and the Express + socket.io server with its security.
 * Nothing starts before `listen()`.
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
  // The transport takes up to twice the cap, so a payload over the cap gets a `too_large` answer
  // from its event handler instead of socket.io dropping the whole connection.
  const http = createHttpLayer({
    ...options,
    maxHttpBufferSize: maxPayloadBytes * 2,
    logger,
    toWireError,
  });
  const processSources = new ProcessSources(logger);
  const limiter = new RateLimiter({
    ratePerSecond: options.pageCallRate?.perSecond ?? 20,
    burst: options.pageCallRate?.burst ?? 40,
    message: "This app is calling its tools too often; it was slowed down. Try again in a moment.",
  });
  let config: McpConfig | null = null;
  let store: HostStore | null = null;
  let sessions: SessionRegistry | null = null;
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
      for (const entry of Object.values(config?.servers ?? {})) {
        factories.set(entry.name, {
          factory: configSourceFactory(entry, {
            timeout: entry.timeout ?? 60,
          }),
          shared: effectiveShareMode(entry) === "process",
        });
      }
      const opened =
        typeof options.store === "object"
          ? options.store
          : await openStore(options.store ?? "sqlite:./data/mcp-chat-host.db", { logger });
      const audit = new AuditLog(opened, { logger });
      // Everyone outside the engine sees a store whose audit includes what is still queued.
      store = audit.storeView();
      const interrupted = await store.markInterruptedReplies();
      if (interrupted > 0)
        logger.warn({ interrupted }, "replies cut short by the last stop were marked interrupted");
      const services: SessionServices = {
        store,
        audit,
        model,
        modelName,
        logger,
        configured,
        processSources,
        sandboxFor: (source, meta, pageHost) =>
          http.urls.sandboxPlacement(source, pageHost, {
            csp: meta.csp,
            permissions: meta.permissions,
          }),
        takePageCall: (instanceId) => {
          const decision = limiter.take(instanceId);
          return decision.ok ? null : decision.error.message;
        },
        now,
        toolTimeout: options.toolTimeout ?? 300,
        toolResultLimit: options.toolResultLimit ?? DEFAULT_TOOL_RESULT_LIMIT,
        modelStallTimeoutMs: (options.modelStallTimeout ?? 60) * 1_000,
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
        const emitter = ((event: string, payload: unknown) => {
          (socket.emit as (event: string, payload: unknown) => void)(event, payload);
        }) as SessionEmitter;
        ready.then(
          (session) => {
            session.pageHost = socket.handshake.headers.host;
            session.connect(emitter);
          },
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
        socket.on("disconnect", () => {
          ready.then((session) => session.disconnect(emitter)).catch(() => undefined);
          registry.release(key);
        });
      });
      const address = await http.listen(listenOptions);
      logger.info({ url: address.url, model: modelName }, "mcp-chat-host is listening");
      return address;
    },
    async close() {
      await sessions?.endAll();
      await processSources.closeAll();
      await http.close();
      await store?.close();
    },
    get urls() {
      return http.urls;
    },
    signInUrl: () => http.signInUrl(),
    get store() {
      if (!store) throw new Error("The store is opened by listen().");
      return store;
    },
    modelName,
    get config() {
      return config;
    },
    http,
    get sessions() {
      if (!sessions) throw new Error("Sessions start with listen().");
      return sessions;
    },
  };
  return server;
}
