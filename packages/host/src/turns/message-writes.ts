// The writes of one reply to its stored message, in order. A store may finish two writes in
// either order (a pool of connections, each a read-then-write transaction), so a write starts
// only after the one before it has finished: a progress save can never land after the end.
import type { HostStore, MessageChanges, MessageRecord } from "../store/host-store";

type StoredParts = NonNullable<MessageChanges["parts"]>;

/**
 * The queue of writes to one stored message. Progress saves wait their turn and fold together
 * (only the newest parts are written); once the end is queued, no progress save is taken.
 */
export class MessageWrites {
  /** Settles when the last queued write has finished (whatever its outcome). */
  #tail: Promise<unknown> = Promise.resolve();
  /** The newest parts of a progress save that has not started yet, or null when none waits. */
  #waitingParts: StoredParts | null = null;
  /** The end has been queued: later progress saves are dropped. */
  #ended = false;

  constructor(
    private readonly store: HostStore,
    /** The conversation the message is in. */
    readonly conversationId: string,
    /** The message written to. */
    readonly messageId: string,
  ) {}

  /**
   * Queues a save of the parts so far, after every earlier write. A save still waiting to start
   * takes the newer parts instead of queueing another write.
   *
   * @param parts - the parts to store (a copy the caller no longer changes).
   * @param failed - told when the write fails (the reply goes on; the end is saved anyway).
   */
  progress(parts: StoredParts, failed: (error: unknown) => void): void {
    if (this.#ended) return;
    const alreadyWaiting = this.#waitingParts !== null;
    this.#waitingParts = parts;
    if (alreadyWaiting) return;
    this.#enqueue(() => {
      const waiting = this.#waitingParts;
      this.#waitingParts = null;
      // The end was queued meanwhile: it writes every part, so this save has nothing to add.
      if (waiting === null || this.#ended) return Promise.resolve(null);
      return this.store.updateMessage(this.conversationId, this.messageId, { parts: waiting });
    }).catch(failed);
  }

  /**
   * Queues the message's last write, after every earlier one; no progress save is taken after it.
   *
   * @returns the stored message, once this write (and every one before it) has finished.
   */
  end(changes: MessageChanges): Promise<MessageRecord> {
    this.#ended = true;
    this.#waitingParts = null;
    return this.#enqueue(() =>
      this.store.updateMessage(this.conversationId, this.messageId, changes),
    );
  }

  /** Runs `write` once every earlier write has finished, failed or not. */
  #enqueue<T>(write: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(write);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
