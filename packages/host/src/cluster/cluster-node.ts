import type { ConversationSummary } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { HostSocketServer } from "../server/http-layer";
import type { HostSession } from "../host-session";
import type { ConversationRecord, HostStore, MessageRecord } from "../store/host-store";
import { messageToWire } from "../turns/message-wire";
import { clusterStore } from "./cluster-store";
import { LeaseKeeper } from "./lease-keeper";
import { LiveReplies } from "./live-replies";
import { connectRedis, type RedisLink } from "./redis-link";
import { conversationRoom, userRoom } from "./rooms";
import { TabRouter } from "./tab-router";

/** How a node takes part in a cluster. */
export interface ClusterNodeOptions {
  /** This node's id (default: generated, and logged). */
  nodeId: string;
  /** Redis for what crosses nodes; none: one node, rooms in memory. */
  redisUrl?: string | undefined;
  /** Whether the node keeps a lease in the database (several nodes share it). */
  leases: boolean;
  /** How long a lease lasts without renewal, in ms (default 15,000). */
  leaseTtlMs?: number | undefined;
  /** A PEM file of the CA that signed Redis's certificate (`rediss://` only). */
  redisCaFile?: string | undefined;
}

/** What `/readyz` reports. */
export interface Readiness {
  ok: boolean;
  node: string;
  database: "ok" | "unreachable";
  redis: "ok" | "unreachable" | "not-used";
  draining: boolean;
}

/**
 * The node's part in a cluster: the socket.io Redis Streams adapter (when `REDIS_URL` is set),
 * the tab routers that send each conversation's events to its room, the live-reply relay, the
 * lease, and the store wrapper that ties them to the sessions. With no Redis the same code runs
 * on socket.io's in-memory adapter, so one node behaves as one node always did.
 */
export class ClusterNode {
  readonly liveReplies: LiveReplies;
  readonly #routers = new WeakMap<HostSession, TabRouter>();
  #leases: LeaseKeeper | null = null;
  #stopping = false;
  #draining = false;

  private constructor(
    readonly options: ClusterNodeOptions,
    private readonly io: HostSocketServer,
    readonly redis: RedisLink | null,
    private readonly logger: Logger,
  ) {
    this.liveReplies = new LiveReplies(io, redis !== null, logger);
    redis?.onBack(() => {
      // Cross-node events sent while Redis was away are lost: every tab here reloads.
      (this.io.local.emit as (event: string, payload: unknown) => void)("session:stale", {});
    });
  }

  /**
   * Connects to Redis (when configured) and puts the adapter on the socket server.
   *
   * @throws {ClusterStartError} `redis` when Redis cannot be reached.
   */
  static async start(
    io: HostSocketServer,
    options: ClusterNodeOptions,
    logger: Logger,
  ): Promise<ClusterNode> {
    const redis =
      options.redisUrl === undefined
        ? null
        : await connectRedis(options.redisUrl, logger, { caFile: options.redisCaFile });
    if (redis) {
      const { createAdapter } = await import("@socket.io/redis-streams-adapter");
      io.adapter(
        createAdapter(redis.client, { streamName: "mcp-chat-host", blockTimeInMs: 1_000 }),
      );
    }
    logger.info(
      { node: options.nodeId, redis: redis !== null, leases: options.leases },
      "this node's id",
    );
    return new ClusterNode(options, io, redis, logger);
  }

  /** The store the sessions use (see {@link clusterStore}). */
  wrapStore(store: HostStore): HostStore {
    return clusterStore(store, {
      nodeId: this.options.nodeId,
      liveParts: (messageId) => this.liveReplies.anywhere(messageId),
      conversationsChanged: (userId) => void this.#announce(store, userId),
      stopping: () => this.#stopping,
    });
  }

  /**
   * Marks the replies a stop cut short: with leases, those of this node id and of nodes whose
   * lease ran out (then keeps the lease); alone, every reply still `streaming`.
   */
  async startReplies(store: HostStore): Promise<void> {
    if (!this.options.leases) {
      const interrupted = await store.markInterruptedReplies();
      if (interrupted > 0)
        this.logger.warn(
          { interrupted },
          "replies cut short by the last stop were marked interrupted",
        );
      return;
    }
    this.#leases = new LeaseKeeper({
      store,
      nodeId: this.options.nodeId,
      ttlMs: this.options.leaseTtlMs ?? 15_000,
      logger: this.logger,
      onInterrupted: (messages) => this.#tellInterrupted(messages),
    });
    await this.#leases.start();
  }

  /** The router of a session, made on first use. */
  routerFor(session: HostSession): TabRouter {
    let router = this.#routers.get(session);
    if (!router) {
      router = new TabRouter(session, {
        io: this.io,
        liveReplies: this.liveReplies,
        crossNodeUp: () => this.redis?.up ?? true,
      });
      this.#routers.set(session, router);
      const made = router;
      // Once per session: the tab's socket follows the conversation it shows.
      session.conversations.onShow((conversationId) => made.follow(conversationId));
    }
    return router;
  }

  /** True once draining started. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Draining: `/readyz` fails from now on, so the balancer sends no new tabs here. */
  startDraining(): void {
    this.#draining = true;
  }

  /**
   * Waits until no reply is being written on this node, or `timeoutMs` passed.
   *
   * @returns true when every reply finished.
   */
  async repliesFinished(timeoutMs: number): Promise<boolean> {
    return this.liveReplies.idle(timeoutMs);
  }

  /** From now on a reply cut short is `interrupted` (the node is stopping, not the person). */
  markStopping(): void {
    this.#stopping = true;
  }

  /** The database and Redis, as `/readyz` reports them. */
  async readiness(store: HostStore | null): Promise<Readiness> {
    const database = store !== null && (await reachable(store)) ? "ok" : "unreachable";
    const redis =
      this.redis === null ? "not-used" : (await this.redis.ping()) ? "ok" : "unreachable";
    return {
      ok: database === "ok" && redis !== "unreachable" && !this.#draining,
      node: this.options.nodeId,
      database,
      redis,
      draining: this.#draining,
    };
  }

  /** Stops the lease (giving it up, with this node's replies interrupted) and Redis. */
  async close(): Promise<void> {
    await this.#leases?.stop({ release: true });
    await this.redis?.close();
  }

  async #announce(store: HostStore, userId: string): Promise<void> {
    try {
      const conversations = (await store.listConversations(userId)).map(summaryOf);
      this.#broadcast(userRoom(userId), "conversations:changed", { conversations });
    } catch (error) {
      this.logger.warn({ err: error }, "could not tell a user's tabs about their conversations");
    }
  }

  #tellInterrupted(messages: MessageRecord[]): void {
    for (const message of messages) {
      const room = conversationRoom(message.conversationId);
      this.#broadcast(room, "message:updated", { message: messageToWire(message) });
      this.#broadcast(room, "turn:state", {
        chatId: message.chatId,
        conversationId: message.conversationId,
        running: false,
      });
    }
  }

  #broadcast(room: string, event: string, payload: unknown): void {
    const target = (this.redis?.up ?? true) ? this.io.to(room) : this.io.local.to(room);
    (target.emit as (event: string, payload: unknown) => void)(event, payload);
  }
}

/** Whether the store answers a cheap read within two seconds. */
async function reachable(store: HostStore): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 2_000);
  });
  try {
    return await Promise.race([store.getUser("readiness-check").then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** A conversation as the browser lists it. */
function summaryOf(record: ConversationRecord): ConversationSummary {
  return {
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    imported: record.imported,
  };
}
