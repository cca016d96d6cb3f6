// The thread that commits the audit of page calls to a SQLite file (see sqlite-audit-writer.ts,
// which starts it). It has its own connection to the store's file, set up as the store's own
// (WAL, `synchronous = FULL`, the same busy timeout), so a batch is as durable as before; the
// difference is only that waiting for the disk blocks this thread, not the server's event loop.
//
// Plain JavaScript on purpose: a worker thread loads its file by name, without the TypeScript
// loader of the process that started it (tsx, vitest), and the published package copies this
// file beside its bundle as it is. It knows no schema: the main thread sends the INSERT's SQL at
// start and each batch as rows of values, committed in one transaction per batch, in the order
// they arrive.
//
// Messages in: { kind: "write", id, rows } and { kind: "close" }. Messages out: { kind: "ready" }
// or { kind: "open-failed", error }; then { kind: "written", id } or { kind: "failed", id, error }
// per batch; { kind: "closed" } last. An error is { message, code? } (better-sqlite3's `code`,
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

/** @type {{ path: string; sql: string; busyTimeoutMs: number }} */
const { path, sql, busyTimeoutMs } = workerData;
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
  writeBatch = database.transaction((/** @type {unknown[][]} */ rows) => {
    for (const values of rows) insert.run(values);
  });
} catch (error) {
  database?.close();
  port.postMessage({ kind: "open-failed", error: describe(error) });
  port.close();
}

if (writeBatch !== undefined) {
  port.on("message", (/** @type {{ kind: string; id?: number; rows?: unknown[][] }} */ message) => {
    if (message.kind === "write") {
      try {
        writeBatch(message.rows);
        port.postMessage({ kind: "written", id: message.id });
      } catch (error) {
        port.postMessage({ kind: "failed", id: message.id, error: describe(error) });
      }
      return;
    }
    if (message.kind === "close") {
      database.close();
      port.postMessage({ kind: "closed" });
      port.close();
    }
  });
  port.postMessage({ kind: "ready" });
}
