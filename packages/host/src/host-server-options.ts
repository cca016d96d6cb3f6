import type { McpConfig } from "@mcp-chat-host/connection";
import type { LanguageModel } from "ai";
import type { Logger } from "pino";
import type { HttpLayer, HttpLayerOptions } from "./server/http-layer";
import type { MetricsOptions } from "./server/metrics-setup";
import type { SessionFunction, SessionRegistry } from "./session-registry";
import type { HostStore } from "./store/host-store";

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
   * Page requests allowed per card, of each kind (tool calls, resource requests, context
   * updates, messages, log entries): sustained per second and burst (default: the config's
   * `host.pageCalls`, else 20 and 40); and the budgets shared by the cards of one source in a
   * session (`perSource`, default twice the card's) and by all cards of a session (`perSession`,
   * default four times). Each field wins over the file's.
   */
  pageCallRate?: {
    perSecond?: number;
    burst?: number;
    perSource?: { perSecond: number; burst: number };
    perSession?: { perSecond: number; burst: number };
  };
  /** How long a model's tool call may run, in seconds (default 300). */
  toolTimeout?: number;
  /**
   * How long a question an MCP server asks the person (elicitation) waits for an answer, in
   * seconds (default: the `ELICITATION_TIMEOUT` environment variable, else 300, five minutes);
   * then the server is answered `cancel` and the person is told the question went unanswered.
   */
  elicitationTimeout?: number;
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
  /**
   * The keys people's sign-ins to remote MCP servers are sealed with (AES-256-GCM): entries
   * `<id>:<32 bytes in base64>`, comma-separated, the sealing key first, older keys after it
   * (they still open what they sealed). Default: `OAUTH_CREDENTIAL_KEYS`; without either, a key of
   * this run only (sign-ins do not survive a restart). See docs/remote-servers.md.
   */
  oauthCredentialKeys?: string;
  /**
   * Accept authorization servers on loopback (`http://127.0.0.1`) for remote servers that are not
   * on loopback themselves (development only). Default false; a loopback server may always use one.
   */
  oauthAllowLoopback?: boolean;
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
