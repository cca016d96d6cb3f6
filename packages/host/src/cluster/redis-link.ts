import { errorMessage } from "@mcp-chat-host/protocol";
import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import type { createClient } from "redis";
import { ClusterStartError, redactUrl, withoutCredentials } from "./cluster-start-error";

/** The node's connection to Redis, which carries what crosses nodes. */
export interface RedisLink {
  /** The client the socket.io adapter publishes with (it makes its own copies to read). */
  readonly client: ReturnType<typeof createClient>;
  /** False while the connection is down (the node then serves only its own tabs). */
  readonly up: boolean;
  /** Registers a function called each time the connection comes back after being down. */
  onBack(listener: () => void): void;
  /** Answers whether Redis replies to a `PING` within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Closes the connection (and stops reconnecting). */
  close(): Promise<void>;
}

/** Options of {@link connectRedis}. */
export interface RedisConnectOptions {
  /**
   * A PEM file of the CA that signed Redis's certificate (`--redis-ca-file`,
   * `REDIS_TLS_CA_FILE`), for a `rediss://` URL whose server the system's CAs don't vouch for.
   */
  caFile?: string | undefined;
}

/** How long the first connection may take before the node refuses to start, in ms. */
const START_TIMEOUT_MS = 5_000;

/**
 * Connects to Redis. The first connection must succeed, else the node does not start; after that
 * a lost connection is retried for ever (every 100 ms growing to 2 s), and commands wait for it.
 *
 * @param url - `redis://host:port` (or `rediss://`).
 * @param logger - told when the connection drops and comes back.
 * @returns the link, connected.
 * @throws {ClusterStartError} `redis` when Redis cannot be reached at start.
 */
export async function connectRedis(
  url: string,
  logger: Logger,
  options: RedisConnectOptions = {},
): Promise<RedisLink> {
  const tls = redisTlsOptions(url, options.caFile);
  let started = false;
  let up = false;
  let wasDown = false;
  const listeners: (() => void)[] = [];
  // Loaded only by a node that uses Redis: a lone server never pays for the client.
  const { createClient: makeClient } = await import("redis");
  const client = makeClient({
    url,
    socket: {
      ...tls,
      connectTimeout: START_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) =>
        started ? Math.min(100 * 2 ** Math.min(retries, 5), 2_000) : cause,
    },
  });
  client.on("error", (error: Error) => {
    if (!started) return;
    if (up) logger.warn({ err: error }, "the connection to Redis was lost; retrying");
    if (up) wasDown = true;
    up = false;
  });
  client.on("ready", () => {
    up = true;
    if (!started || !wasDown) return;
    wasDown = false;
    logger.info("the connection to Redis is back; tabs on this node ask for a fresh snapshot");
    for (const listener of listeners) listener();
  });
  client.on("end", () => {
    up = false;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    try {
      client.destroy();
    } catch {
      // A failed first connection already closed it.
    }
    // The sentence names the setting to check; Redis's own words (and its address) go to the log.
    logger.error(
      {
        redis: redactUrl(url),
        detail: withoutCredentials(errorMessage(error), url),
      },
      "could not connect to Redis",
    );
    throw new ClusterStartError("redis", redisStartRefusal(error), { cause: error });
  }
  started = true;
  up = true;
  return {
    client,
    get up() {
      return up;
    },
    onBack(listener) {
      listeners.push(listener);
    },
    async ping(timeoutMs = 1_000) {
      if (!up) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        return await Promise.race([client.ping().then((answer) => answer === "PONG"), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      // Reconnecting stays on: the adapter's readers close their own connections once their
      // last blocking read returns.
      try {
        client.destroy();
      } catch {
        // Already closed.
      }
    },
  };
}

/**
 * The socket's TLS options: none for `redis://`; for `rediss://` the client's own (the system's
 * CAs), plus the operator's CA file when given.
 *
 * @throws {ClusterStartError} `redis` for a CA file with a `redis://` URL, or one that can't be read.
 */
function redisTlsOptions(url: string, caFile: string | undefined): { tls?: true; ca?: Buffer } {
  if (caFile === undefined) return {};
  if (!/^rediss:/i.test(url)) {
    throw new ClusterStartError(
      "redis",
      "A Redis CA file (--redis-ca-file, REDIS_TLS_CA_FILE) needs a rediss:// URL in REDIS_URL; this node does not start.",
    );
  }
  try {
    return { tls: true, ca: readFileSync(caFile) };
  } catch (error) {
    throw new ClusterStartError(
      "redis",
      `The Redis CA file (--redis-ca-file, REDIS_TLS_CA_FILE) cannot be read (${(error as NodeJS.ErrnoException).code ?? "an error"}); this node does not start.`,
      { cause: error },
    );
  }
}

/**
 * The sentence a node prints when its first connection to Redis fails: what failed and which
 * setting to check, without Redis's address or its own words.
 */
function redisStartRefusal(error: unknown): string {
  const message = errorMessage(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (/WRONGPASS|NOAUTH|invalid (username-)?password|AUTH .*without any password/i.test(message)) {
    return "Redis refused the password (or user); this node does not start. Check the user and password in REDIS_URL (redis://user:password@host:port).";
  }
  if (/NOPERM/.test(message)) {
    return "Redis's ACL user may not run every command this host needs; this node does not start. Give the user in REDIS_URL +@all on the host's keys and channels, or another user.";
  }
  if (
    (typeof code === "string" && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) ||
    /certificate|SSL routines|wrong version number/i.test(message)
  ) {
    return "The TLS connection to Redis failed (its certificate was not trusted, or it does not speak TLS on that port); this node does not start. Check rediss:// in REDIS_URL and the CA file (--redis-ca-file or REDIS_TLS_CA_FILE).";
  }
  return "Redis cannot be reached; this node does not start. Check the host and port in REDIS_URL and that Redis is running.";
}
