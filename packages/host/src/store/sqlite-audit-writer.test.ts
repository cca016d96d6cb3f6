import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditLog } from "../audit/audit-log";
import type { HostStore, NewAudit } from "./host-store";
import { openStore } from "./open-store";
import { SqliteAuditWriter, auditWorkerUrl } from "./sqlite-audit-writer";
import type { SqliteStore } from "./sqlite-store";
import { insertAuditSql } from "./sqlite-card-tables";
import { isStoreError } from "./store-error";

const entry = (tool: string, extra: Partial<NewAudit> = {}): NewAudit => ({
  userId: "u",
  sessionId: "s",
  conversationId: null,
  instanceId: "host-1",
  source: "app",
  tool,
  verdict: "allowed",
  durationMs: 1,
  at: 1_000,
  ...extra,
});

/** The tools of the file's audit rows in the order they were inserted, read by a connection of its own. */
function toolsOnDisk(path: string): string[] {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = database.prepare("SELECT tool FROM audit ORDER BY rowid").all() as {
      tool: string;
    }[];
    return rows.map((row) => row.tool);
  } finally {
    database.close();
  }
}

/** Polls `condition` every 10 ms for at most 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !condition(); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition()).toBe(true);
}

describe("the audit writer thread of a SQLite file store", () => {
  let folder: string;
  let path: string;
  let store: HostStore | null;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-audit-writer-"));
    path = join(folder, "host.db");
    store = null;
  });

  afterEach(async () => {
    await store?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("finds its worker's file beside the module", () => {
    expect(existsSync(auditWorkerUrl())).toBe(true);
  });

  it("commits batches in the order they were written, each before its promise resolves", async () => {
    const warnings: unknown[] = [];
    store = await openStore(`sqlite:${path}`, {
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
    });
    const sqlite = store as SqliteStore;
    // An idle server holds no thread: it starts with the first audit write.
    expect(sqlite.auditWriterRunning).toBe(false);
    const first = store.appendAudits([entry("a"), entry("b")]);
    expect((await first).map((record) => record.tool)).toEqual(["a", "b"]);
    await waitFor(() => sqlite.auditWriterRunning);
    // The thread started: the store did not fall back to writing on its own connection.
    expect(warnings).toEqual([]);
    const second = store.appendAudit(entry("c"));
    const third = store.appendAudits([entry("d")]);
    await Promise.all([second, third]);
    // Committed to the file, as another connection (another process) sees it.
    expect(toolsOnDisk(path)).toEqual(["a", "b", "c", "d"]);
  });

  it("lets a read right after a write see it, without waiting for the write", async () => {
    store = await openStore(`sqlite:${path}`);
    void store.appendAudits([entry("a")]);
    void store.appendAudits([entry("b")]);
    const audit = await store.listAudit({});
    expect(audit.map((record) => record.tool)).toEqual(["b", "a"]);
  });

  it("keeps the promise of the audit log: what a reader asks for after a call includes it", async () => {
    const opened = await openStore(`sqlite:${path}`);
    const log = new AuditLog(opened, { logger: pino({ level: "silent" }), flushMs: 60_000 });
    store = log.storeView();
    log.record(entry("called"));
    expect((await store.listAudit({})).map((record) => record.tool)).toEqual(["called"]);
  });

  it("loses nothing written before the store closes", async () => {
    const opened = await openStore(`sqlite:${path}`);
    for (let index = 0; index < 20; index += 1) void opened.appendAudits([entry(`t${index}`)]);
    await opened.close();
    expect(toolsOnDisk(path)).toHaveLength(20);
    // After the close, a write is refused as the store's error.
    await expect(opened.appendAudits([entry("late")])).rejects.toSatisfy((error) =>
      isStoreError(error, "closed"),
    );
  });

  it("turns a failing write into the store's error and keeps writing", async () => {
    store = await openStore(`sqlite:${path}`);
    await store.appendAudits([entry("a", { id: "same" })]);
    await expect(store.appendAudits([entry("b", { id: "same" })])).rejects.toSatisfy((error) =>
      isStoreError(error, "conflict"),
    );
    // The failed batch is one transaction: none of its rows were written.
    await expect(store.appendAudits([entry("c"), entry("d", { id: "same" })])).rejects.toSatisfy(
      (error) => isStoreError(error, "conflict"),
    );
    await store.appendAudits([entry("e")]);
    expect(toolsOnDisk(path)).toEqual(["a", "e"]);
  });

  it("logs a failed batch of the audit log and goes on", async () => {
    const opened = await openStore(`sqlite:${path}`);
    const errors: string[] = [];
    const logger = pino({ level: "error" }, { write: (line: string) => errors.push(line) });
    const log = new AuditLog(opened, { logger, flushMs: 60_000 });
    store = log.storeView();
    log.record(entry("a", { id: "same" }));
    log.record(entry("b", { id: "same" }));
    await log.flush();
    expect(errors.join("")).toContain("could not write the audit of page calls");
    log.record(entry("c"));
    expect((await store.listAudit({})).map((record) => record.tool)).toEqual(["c"]);
  });

  it("ends its thread with close, after committing what it was given", async () => {
    const setUp = await openStore(`sqlite:${path}`);
    await setUp.close();
    const writer = await SqliteAuditWriter.start({ path, sql: insertAuditSql, busyTimeoutMs: 100 });
    const row = ["id-1", 1, "u", "s", null, "host-1", "app", "kept", "allowed", null, 1, null];
    const written = writer.write([row], { what: "The audit entries could not be saved" });
    // close resolves on the thread's exit event, so the thread has ended when it does.
    await writer.close();
    await written;
    expect(writer.running).toBe(false);
    expect(toolsOnDisk(path)).toEqual(["kept"]);
    await expect(
      writer.write([row], { what: "The audit entries could not be saved" }),
    ).rejects.toSatisfy((error) => isStoreError(error, "closed"));
  });

  it("refuses to start on a file that is not there, as the store's error", async () => {
    await expect(
      SqliteAuditWriter.start({
        path: join(folder, "missing.db"),
        sql: insertAuditSql,
        busyTimeoutMs: 100,
      }),
    ).rejects.toSatisfy((error) => isStoreError(error, "storage_failed"));
  });
});
