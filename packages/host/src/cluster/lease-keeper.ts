import type { Logger } from "pino";
import type { HostStore, MessageRecord } from "../store/host-store";

/** Options of {@link LeaseKeeper}. */
export interface LeaseKeeperOptions {
  store: HostStore;
  nodeId: string;
  /** How long a lease lasts without renewal, in ms. */
  ttlMs: number;
  logger: Logger;
  /** Told about replies that became `interrupted` because their node's lease ran out. */
  onInterrupted(messages: MessageRecord[]): void;
}

/**
 * The node's lease in the database: renewed every third of its lifetime, and at each renewal the
 * replies of nodes whose lease ran out become `interrupted` (never those of a living node). A
 * failed renewal (the database restarting) is logged and tried again at the next tick.
 */
export class LeaseKeeper {
  #timer: NodeJS.Timeout | null = null;
  #tick: Promise<void> = Promise.resolve();

  /** @param options - the store, the node, the lease's lifetime, where to tell. */
  constructor(private readonly options: LeaseKeeperOptions) {}

  /**
   * Takes the lease and sweeps once (at start): replies a crashed process left under this same
   * node id are interrupted, and so are those of nodes whose lease ran out.
   *
   * @throws the store's error when the database cannot be written.
   */
  async start(): Promise<void> {
    const { store, nodeId, ttlMs } = this.options;
    await store.renewLease(nodeId, ttlMs);
    const own = await store.interruptRepliesOf(nodeId);
    const orphaned = await store.interruptOrphanedReplies();
    this.#report([...own, ...orphaned]);
    this.#timer = setInterval(
      () => {
        this.#tick = this.#tick.then(() => this.renew());
      },
      Math.max(50, Math.floor(ttlMs / 3)),
    );
    this.#timer.unref();
  }

  /** Renews the lease and interrupts the replies of nodes whose lease ran out. */
  async renew(): Promise<void> {
    const { store, nodeId, ttlMs, logger } = this.options;
    try {
      await store.renewLease(nodeId, ttlMs);
      this.#report(await store.interruptOrphanedReplies());
    } catch (error) {
      logger.warn({ err: error }, "could not renew this node's lease; trying again soon");
    }
  }

  /**
   * Stops renewing; with `release`, marks this node's own replies `interrupted` and gives the
   * lease up (a clean stop).
   */
  async stop(options: { release: boolean }): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#tick;
    if (!options.release) return;
    const { store, nodeId, logger } = this.options;
    try {
      this.#report(await store.interruptRepliesOf(nodeId));
      await store.releaseLease(nodeId);
    } catch (error) {
      logger.warn({ err: error }, "could not release this node's lease; it runs out by itself");
    }
  }

  #report(messages: MessageRecord[]): void {
    if (messages.length === 0) return;
    this.options.logger.warn(
      { interrupted: messages.length },
      "replies whose node stopped were marked interrupted",
    );
    this.options.onInterrupted(messages);
  }
}
