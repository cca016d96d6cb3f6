// The thread that commits the audit of page calls to a SQLite file (see sqlite-audit-writer.ts,
// which starts it). It has its own connection to the store's file, set up as the store's own
// (WAL, `synchronous = FULL`, the same busy timeout), so a batch is as durable as before; the
// difference is only that waiting for the disk blocks this thread, not the server's event loop.
//
// Plain JavaScript on purpose: a worker thread loads its file by name, without the TypeScript
// loader of the process that started it (tsx, vitest), and the published package copies this
// file beside its bundle as it is. It knows no schema: the main thread sends the INSERT's SQL at
// start and each batch as rows of values, committed in one transaction per batch, in the order
// they arrive; a batch the database is too busy for is tried again later, before the next one.
//
// Messages in: { kind: "write", id, rows } and { kind: "close" }. Messages out: { kind: "ready" }
// or { kind: "open-failed", error }; then { kind: "written", id } or { kind: "failed", id, error }
// per batch, with { kind: "busy", id, delayMs } each time a batch waits to be tried again;
// { kind: "closed" } last. An error is { message, code? } (better-sqlite3's `code`,
// e.g. "SQLITE_FULL", which the main thread maps to the store's own error).
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/** @param {unknown} error */
function describe(error) {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" ? { message, code } : { message };
}

/** @type {{ path: string; sql: string; busyTimeoutMs: number; busyRetryDelaysMs: number[] }} */
const { path, sql, busyTimeoutMs, busyRetryDelaysMs } = workerData;
const port = parentPort;
if (port === null) throw new Error("The audit writer runs only as a worker thread.");

let database;
let writeBatch;
try {
  database = new Database(path, { fileMustExist: true });
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = FULL");
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
  const insert = database.prepare(sql);
  const transaction = database.transaction((/** @type {unknown[][]} */ rows) => {
    for (const values of rows) insert.run(values);
  });
  // IMMEDIATE: the write lock first, so the busy timeout covers a wait for the server's commit.
  writeBatch = (/** @type {unknown[][]} */ rows) => transaction.immediate(rows);
} catch (error) {
  database?.close();
  port.postMessage({ kind: "open-failed", error: describe(error) });
  port.close();
}

/** @param {unknown} error */
function isBusy(error) {
  const code = describe(error).code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/**
 * The batches not yet committed, oldest first, and whether a close was asked for. A batch still
 * refused as busy after the busy timeout (the server's connection held the lock longer: a slow
 * disk) is tried again after each of the delays, on a timer; the batches after it wait, so the
 * order stays the order they were written.
 * @type {{ id: number; rows: unknown[][]; delays: number }[]}
 */
const queue = [];
let closing = false;
let waiting = false;

function drain() {
  while (!waiting && queue.length > 0) {
    const batch = queue[0];
    try {
      writeBatch(batch.rows);
    } catch (error) {
      const delay = busyRetryDelaysMs[batch.delays];
      if (isBusy(error) && delay !== undefined) {
        batch.delays += 1;
        waiting = true;
        port.postMessage({ kind: "busy", id: batch.id, delayMs: delay });
        setTimeout(() => {
          waiting = false;
          drain();
        }, delay);
        return;
      }
      queue.shift();
      port.postMessage({ kind: "failed", id: batch.id, error: describe(error) });
      continue;
    }
    queue.shift();
    port.postMessage({ kind: "written", id: batch.id });
  }
  if (closing && !waiting && queue.length === 0) {
    database.close();
    port.postMessage({ kind: "closed" });
    port.close();
  }
}

if (writeBatch !== undefined) {
  port.on("message", (/** @type {{ kind: string; id?: number; rows?: unknown[][] }} */ message) => {
    if (message.kind === "write") {
      queue.push({ id: message.id, rows: message.rows, delays: 0 });
    } else if (message.kind === "close") {
      closing = true;
    }
    drain();
  });
  port.postMessage({ kind: "ready" });
}
