import type { Logger } from "pino";
import type { HostStore, NewAudit } from "../store/host-store";

/**
 * The audit of page tool calls, written in batches. Every page call is audited, and a store that
 * commits each row on its own waits for the disk once per call (see docs/performance.md). Audit
 * rows are a record, not something acknowledged to the person, so they are queued and committed
 * together every `flushMs` (or at `maxBatch` rows); reading the audit, and closing, write what is
 * queued first. A SQLite file store commits the batch from a worker thread of its own
 * (`SqliteAuditWriter`), so the commit's wait for the disk is not on the event loop either.
 */
export class AuditLog {
  #queue: NewAudit[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: HostStore,
    private readonly options: { logger: Logger; flushMs?: number; maxBatch?: number },
  ) {}

  /** Queues one audited call; it is committed within `flushMs`. */
  record(entry: NewAudit): void {
    this.#queue.push({ ...entry, at: entry.at ?? Date.now() });
    if (this.#queue.length >= (this.options.maxBatch ?? 500)) {
      void this.flush();
      return;
    }
    if (this.#timer === null) {
      this.#timer = setTimeout(() => void this.flush(), this.options.flushMs ?? 50);
      this.#timer.unref();
    }
  }

  /** Commits everything queued so far; resolves once it is written (failures are logged). */
  flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length > 0) {
      this.#writing = this.#writing.then(async () => {
        try {
          await this.store.appendAudits(batch);
        } catch (error) {
          this.options.logger.error(
            { err: error, rows: batch.length },
            "could not write the audit of page calls",
          );
        }
      });
    }
    return this.#writing;
  }

  /**
   * The store as callers outside the engine see it: reading the audit, or closing the store,
   * first writes what is queued, so nothing audited is missing or lost.
   */
  storeView(): HostStore {
    const store = this.store;
    return new Proxy(store, {
      get: (target, property, receiver) => {
        if (property === "listAudit") {
          return async (...args: Parameters<HostStore["listAudit"]>) => {
            await this.flush();
            return target.listAudit(...args);
          };
        }
        if (property === "close") {
          return async () => {
            await this.flush();
            return target.close();
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function"
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
  }
}
