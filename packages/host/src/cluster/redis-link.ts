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
export async function connectRedis(url: string, logger: Logger): Promise<RedisLink> {
  let started = false;
  let up = false;
  let wasDown = false;
  const listeners: (() => void)[] = [];
  // Loaded only by a node that uses Redis: a lone server never pays for the client.
  const { createClient: makeClient } = await import("redis");
  const client = makeClient({
    url,
    socket: {
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
    throw new ClusterStartError(
      "redis",
      `Redis at ${redactUrl(url)} cannot be reached (${withoutCredentials((error as Error).message, url)}); this node does not start. Check REDIS_URL and that Redis is running.`,
      { cause: error },
    );
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
