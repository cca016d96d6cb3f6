import { toStoreError, type StoreAction } from "./store-error";

/**
 * How long to wait before each new attempt of an operation the database was too busy for, in ms:
 * about 8 s in all, on top of each attempt's own busy timeout. Another connection of this process
 * (the audit writer thread) holds the lock for one commit, milliseconds; a slow disk or another
 * process (a backup, a second server started on the same file by mistake) for longer.
 */
export const defaultBusyRetryDelaysMs: readonly number[] = [
  10, 50, 100, 250, 500, 1000, 2000, 4000,
];

/** Options of {@link BusyRetry}. */
export interface BusyRetryOptions {
  /** The waits before each new attempt; an empty list gives up at the first busy answer. */
  delaysMs?: readonly number[];
  /** Waits `ms` (tests inject one). Default a timer, so the event loop is free meanwhile. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs a SQLite connection's operations in order, trying again later those the database was too
 * busy for. better-sqlite3 waits for a lock synchronously (the busy timeout, kept short because it
 * blocks the event loop); an operation still refused after it waits here on a timer and runs
 * again. While one waits, every later operation queues behind it, so writes keep their order (a
 * reply's progress save never lands after its end) and a read sees every write issued before it.
 * With nothing waiting, an operation runs at once, before its promise is returned, as before.
 */
export class BusyRetry {
  readonly #delaysMs: readonly number[];
  readonly #sleep: (ms: number) => Promise<void>;
  /** Settles when the last queued operation has settled; null when nothing waits. */
  #tail: Promise<void> | null = null;

  constructor(options: BusyRetryOptions = {}) {
    this.#delaysMs = options.delaysMs ?? defaultBusyRetryDelaysMs;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Runs `body` now, or after the operations waiting before it; tries it again while the
   * database is busy, up to the last delay.
   *
   * @param action - what the operation does, for the error's message.
   * @param body - the operation; it must be safe to run again after it threw (a transaction,
   *   rolled back when it throws, or a read).
   * @returns what `body` returned.
   * @throws StoreError what `body` threw, mapped; `storage_busy` once every attempt was refused.
   */
  run<T>(action: StoreAction, body: () => T): Promise<T> {
    if (this.#tail === null) {
      try {
        return Promise.resolve(body());
      } catch (error) {
        const failure = toStoreError(error, action);
        if (failure.code !== "storage_busy" || this.#delaysMs.length === 0) {
          return Promise.reject(failure);
        }
        return this.#queue(action, body, true);
      }
    }
    return this.#queue(action, body, false);
  }

  /** Resolves once nothing waits (what was queued has been written or has failed). */
  async idle(): Promise<void> {
    while (this.#tail !== null) await this.#tail;
  }

  #queue<T>(action: StoreAction, body: () => T, refusedOnce: boolean): Promise<T> {
    const before = this.#tail ?? Promise.resolve();
    const result = before.then(() => this.#attempts(action, body, refusedOnce));
    const tail: Promise<void> = result.then(
      () => this.#settled(tail),
      () => this.#settled(tail),
    );
    this.#tail = tail;
    return result;
  }

  #settled(tail: Promise<void>): void {
    // The last queued operation settled: the next one runs at once again.
    if (this.#tail === tail) this.#tail = null;
  }

  async #attempts<T>(action: StoreAction, body: () => T, refusedOnce: boolean): Promise<T> {
    let delays = 0;
    if (refusedOnce) {
      await this.#sleep(this.#delaysMs[0] ?? 0);
      delays = 1;
    }
    for (;;) {
      try {
        return body();
      } catch (error) {
        const failure = toStoreError(error, action);
        const delay = this.#delaysMs[delays];
        if (failure.code !== "storage_busy" || delay === undefined) throw failure;
        delays += 1;
        await this.#sleep(delay);
      }
    }
  }
}
