import { errorMessage } from "@mcp-chat-host/protocol";
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { defaultBusyRetryDelaysMs } from "./sqlite-busy-retry";
import { StoreError, toStoreError, type StoreAction } from "./store-error";

// Replaced by `true` when packages/mcp-chat-host bundles this file; undeclared otherwise.
declare const MCP_CHAT_HOST_BUNDLE: boolean | undefined;

/** The worker's file name; the published package's build copies it beside its bundle. */
const auditWorkerFileName = "sqlite-audit-worker.mjs";

/**
 * Where the worker's file is: beside this module in the repository, and beside the bundle in the
 * published package (`dist/`; the bundle may have put this module in `dist/chunks/`).
 */
export function auditWorkerUrl(): URL {
  const bundled = typeof MCP_CHAT_HOST_BUNDLE !== "undefined" && MCP_CHAT_HOST_BUNDLE;
  if (bundled) {
    for (const folder of ["./", "../"]) {
      const url = new URL(`${folder}${auditWorkerFileName}`, import.meta.url);
      if (existsSync(url)) return url;
    }
  }
  return new URL(`./${auditWorkerFileName}`, import.meta.url);
}

const workerError = z.object({ message: z.string(), code: z.string().optional() });

const fromWorker = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ready") }),
  z.object({ kind: z.literal("open-failed"), error: workerError }),
  z.object({ kind: z.literal("written"), id: z.number() }),
  z.object({ kind: z.literal("failed"), id: z.number(), error: workerError }),
  z.object({ kind: z.literal("busy"), id: z.number(), delayMs: z.number() }),
  z.object({ kind: z.literal("closed") }),
]);

/** Options of {@link SqliteAuditWriter.start}. */
export interface SqliteAuditWriterOptions {
  /** The store's SQLite file, already migrated (the worker creates and migrates nothing). */
  path: string;
  /** The INSERT each row is run through, with one `?` per value. */
  sql: string;
  /** The store's busy timeout, in ms: how long the worker waits for the server's own writes. */
  busyTimeoutMs: number;
  /**
   * The waits before each new attempt of a batch still refused as busy after the busy timeout
   * (the store's; default `defaultBusyRetryDelaysMs`). Later batches wait behind it, in order.
   */
  busyRetryDelaysMs?: readonly number[];
  /** Told each time a batch waits to be tried again because the database was busy. */
  onBusy?: (delayMs: number) => void;
}

interface PendingWrite {
  action: StoreAction;
  resolve: () => void;
  reject: (error: StoreError) => void;
}

/**
 * Commits rows to a SQLite file from a worker thread with a connection of its own, so the wait
 * for the disk (`synchronous = FULL`: every commit is on the disk before it is reported) blocks
 * that thread instead of the server's event loop. Batches are committed one transaction each, in
 * the order they were written; a batch's promise resolves once it is committed, and rejects with
 * a {@link StoreError} when it is not.
 *
 * The worker keeps the process alive only while a batch is in flight, and ends with
 * {@link SqliteAuditWriter.close} (after the batches already written are committed).
 */
export class SqliteAuditWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, PendingWrite>();
  #nextId = 1;
  #last: Promise<void> = Promise.resolve();
  #running = true;
  #closing: Promise<void> | null = null;
  readonly #exited: Promise<void>;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
  }

  /**
   * Starts the worker and waits until it has opened the file.
   *
   * @throws StoreError `storage_failed` (or what the file's error maps to) when it cannot.
   */
  static start(options: SqliteAuditWriterOptions): Promise<SqliteAuditWriter> {
    const action: StoreAction = {
      what: "The audit writer could not open the data file",
      outcome: "the audit is written by the server's own connection",
    };
    let worker: Worker;
    try {
      const { onBusy: _onBusy, ...data } = options;
      worker = new Worker(auditWorkerUrl(), {
        workerData: {
          ...data,
          busyRetryDelaysMs: [...(options.busyRetryDelaysMs ?? defaultBusyRetryDelaysMs)],
        },
        // The worker is plain JavaScript: it needs none of the parent's loaders or flags.
        execArgv: [],
      });
    } catch (error) {
      return Promise.reject(toStoreError(error, action));
    }
    const writer = new SqliteAuditWriter(worker);
    return new Promise((resolve, reject) => {
      let ready = false;
      const failed = (error: unknown) => {
        writer.#running = false;
        void worker.terminate();
        reject(toStoreError(error, action));
      };
      worker.on("error", (error) => {
        if (writer.#running) writer.#stopped(error);
      });
      worker.on("exit", (code) => {
        if (!ready) failed(new Error(`the writer thread ended before it was ready (${code})`));
        else if (writer.#running) writer.#stopped(new Error(`the writer thread ended (${code})`));
      });
      worker.on("message", (raw: unknown) => {
        const message = fromWorker.safeParse(raw);
        if (!message.success) return;
        switch (message.data.kind) {
          case "ready":
            ready = true;
            worker.unref();
            resolve(writer);
            return;
          case "open-failed":
            failed(errorFrom(message.data.error));
            return;
          case "written":
            writer.#settle(message.data.id, null);
            return;
          case "failed":
            writer.#settle(message.data.id, message.data.error);
            return;
          case "busy":
            options.onBusy?.(message.data.delayMs);
            return;
          case "closed":
            return;
        }
      });
    });
  }

  /** False once the writer is closed or its thread has stopped; write through the store then. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Commits the rows in one transaction, after every batch written before.
   *
   * @param rows - each row's values, in the order of the INSERT's placeholders.
   * @param action - what the store was doing, for the error's message.
   * @returns resolves once the rows are committed.
   * @throws StoreError when they were not (the disk is full, the file is read-only, a row breaks
   *   a constraint, the writer is closed or its thread stopped).
   */
  write(rows: readonly (readonly unknown[])[], action: StoreAction): Promise<void> {
    if (!this.#running) {
      return Promise.reject(
        new StoreError(
          "closed",
          `${action.what} (the store is closed); ${action.outcome ?? "nothing was changed"}.`,
        ),
      );
    }
    const id = this.#nextId;
    this.#nextId += 1;
    const written = new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { action, resolve, reject });
    });
    if (this.#pending.size === 1) this.#worker.ref();
    this.#worker.postMessage({ kind: "write", id, rows });
    this.#last = written.catch(() => undefined);
    return written;
  }

  /** Resolves once every batch written so far is committed or has failed. */
  idle(): Promise<void> {
    return this.#last;
  }

  /** Commits what was written, then closes the worker's connection and ends its thread. */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    if (!this.#running) {
      this.#closing = this.#exited;
      return this.#closing;
    }
    this.#running = false;
    this.#worker.ref();
    this.#worker.postMessage({ kind: "close" });
    this.#closing = this.#exited;
    return this.#closing;
  }

  #settle(id: number, error: z.infer<typeof workerError> | null): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (this.#pending.size === 0 && this.#closing === null) this.#worker.unref();
    if (error === null) pending.resolve();
    else pending.reject(toStoreError(errorFrom(error), pending.action));
  }

  /** The thread stopped on its own: nothing in flight will be answered, so fail it. */
  #stopped(cause: unknown): void {
    this.#running = false;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(
        toStoreError(new Error(`the audit writer stopped: ${errorMessage(cause)}`), pending.action),
      );
    }
  }
}

/** An error as better-sqlite3 threw it in the worker: its message and SQLite code. */
function errorFrom(error: z.infer<typeof workerError>): Error {
  const rebuilt = new Error(error.message) as Error & { code?: string };
  if (error.code !== undefined) rebuilt.code = error.code;
  return rebuilt;
}
