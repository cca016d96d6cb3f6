// A SQLite file that another connection is writing: the audit writer thread of the same server
// (a second connection to the file), or another process. better-sqlite3 waits for the lock
// synchronously up to the busy timeout; what is still refused then is tried again on a timer,
// in order, so no write a person made is lost and no busy error reaches them.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "./open-store";
import { SqliteAuditWriter } from "./sqlite-audit-writer";
import { insertAuditSql } from "./sqlite-card-tables";
import { SqliteStore } from "./sqlite-store";
import { isStoreError } from "./store-error";

const message = (conversationId: string, text: string) => ({
  conversationId,
  chatId: "chat-1",
  role: "user" as const,
  parts: [{ type: "text" as const, text }],
});

const auditRow = (id: string, tool: string) => [
  id,
  1,
  "u",
  "s",
  null,
  "host-1",
  "app",
  tool,
  "allowed",
  null,
  1,
  null,
];

/**
 * A thread with a connection of its own that takes the file's write lock, says "locked", keeps
 * it for `holdMs` and commits: the audit writer thread committing a batch on a slow disk.
 */
function holdWriteLockInThread(path: string, holdMs: number): Promise<Worker> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const Database = require(workerData.driver);
     const database = new Database(workerData.path);
     database.exec("BEGIN IMMEDIATE; INSERT INTO users (id, name, created_at) VALUES ('other', 'other', 1)");
     parentPort.postMessage("locked");
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     database.exec("COMMIT");
     database.close();`,
    { eval: true, workerData: { driver, path, holdMs } },
  );
  return new Promise((resolve, reject) => {
    worker.once("message", () => resolve(worker));
    worker.once("error", reject);
  });
}

describe("a SQLite file another connection is writing", () => {
  let folder: string;
  let path: string;
  let locker: Database.Database | null;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-busy-"));
    path = join(folder, "host.db");
    locker = null;
  });

  afterEach(() => {
    locker?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Another connection to the file, holding its write lock until `release`. */
  function lockFile(): { release: () => void } {
    const other = new Database(path);
    locker = other;
    other.exec("BEGIN IMMEDIATE");
    return { release: () => other.exec("ROLLBACK") };
  }

  it("waits for another thread's commit inside the busy timeout, even after reading first", async () => {
    // appendMessage reads (the conversation, the last seq) before it writes. A deferred
    // transaction would hold a read snapshot then ask for the lock, which SQLite refuses at once
    // (SQLITE_BUSY, no wait) while the other thread writes; IMMEDIATE waits for the lock.
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 10_000,
      busyRetry: { delaysMs: [] },
    });
    try {
      const conversation = await store.createConversation("ada");
      const holder = await holdWriteLockInThread(path, 100);
      const stored = await store.appendMessage(message(conversation.id, "while the thread writes"));
      expect(stored.seq).toBe(1);
      await holder.terminate();
      expect(await store.getUser("other")).toMatchObject({ id: "other" });
    } finally {
      await store.close();
    }
  });

  it("tries a refused write again later, keeps later operations in order, and loses nothing", async () => {
    const waits: number[] = [];
    let release = () => {};
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: {
        delaysMs: [10, 50],
        sleep: (ms) => {
          waits.push(ms);
          // The other connection commits while this write waits on its timer.
          release();
          return Promise.resolve();
        },
      },
    });
    try {
      const conversation = await store.createConversation("ada");
      ({ release } = lockFile());
      const first = store.appendMessage(message(conversation.id, "first"));
      // Issued while the first waits: it runs after it, and the read sees both.
      const second = store.appendMessage(message(conversation.id, "second"));
      const listed = store.listMessages(conversation.id);
      expect((await first).seq).toBe(1);
      expect((await second).seq).toBe(2);
      expect((await listed).map((stored) => stored.seq)).toEqual([1, 2]);
      expect(waits).toEqual([10]);
      // Nothing waits any more: a write runs at once again.
      await expect(store.renameConversation("ada", conversation.id, "Done")).resolves.toMatchObject(
        { title: "Done" },
      );
    } finally {
      await store.close();
    }
  });

  it("gives up with storage_busy once every wait was spent, and works after the lock is gone", async () => {
    const waits: number[] = [];
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: {
        delaysMs: [10, 50],
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    });
    try {
      const conversation = await store.createConversation("ada");
      const { release } = lockFile();
      const append = store.appendMessage(message(conversation.id, "held"));
      await expect(append).rejects.toMatchObject({ code: "storage_busy", retryable: true });
      await expect(append).rejects.toThrow(
        "The message could not be saved (the database is busy); nothing was sent. Try again in a moment.",
      );
      expect(waits).toEqual([10, 50]);
      release();
      expect(await store.listMessages(conversation.id)).toEqual([]);
      await expect(store.appendMessage(message(conversation.id, "after"))).resolves.toMatchObject({
        seq: 1,
      });
    } finally {
      await store.close();
    }
  });

  it("writes a waiting write before the store closes", async () => {
    let release = () => {};
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: {
        delaysMs: [10],
        sleep: () => {
          release();
          return Promise.resolve();
        },
      },
    });
    const conversation = await store.createConversation("ada");
    ({ release } = lockFile());
    const append = store.appendMessage(message(conversation.id, "kept"));
    await store.close();
    expect((await append).seq).toBe(1);
    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.prepare("SELECT count(*) AS count FROM messages").get()).toEqual({ count: 1 });
    } finally {
      reader.close();
    }
  });

  it("has the audit writer thread try a busy batch again, before the batches after it", async () => {
    const setUp = await openStore(`sqlite:${path}`);
    await setUp.close();
    const { release } = lockFile();
    const waits: number[] = [];
    const writer = await SqliteAuditWriter.start({
      path,
      sql: insertAuditSql,
      busyTimeoutMs: 0,
      busyRetryDelaysMs: [5, 5, 5],
      onBusy: (delayMs) => {
        waits.push(delayMs);
        // The server's connection committed: the batch goes through on its next attempt.
        release();
      },
    });
    try {
      const action = { what: "The audit entries could not be saved" };
      const first = writer.write([auditRow("id-1", "first")], action);
      const second = writer.write([auditRow("id-2", "second")], action);
      await Promise.all([first, second]);
      expect(waits).toEqual([5]);
    } finally {
      await writer.close();
    }
    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.prepare("SELECT tool FROM audit ORDER BY rowid").all()).toEqual([
        { tool: "first" },
        { tool: "second" },
      ]);
    } finally {
      reader.close();
    }
  });

  it("has the audit writer thread fail a batch with storage_busy once its waits are spent", async () => {
    const setUp = await openStore(`sqlite:${path}`);
    await setUp.close();
    const { release } = lockFile();
    const writer = await SqliteAuditWriter.start({
      path,
      sql: insertAuditSql,
      busyTimeoutMs: 0,
      busyRetryDelaysMs: [1, 1],
    });
    try {
      const action = { what: "The audit entries could not be saved" };
      await expect(writer.write([auditRow("id-1", "held")], action)).rejects.toSatisfy((error) =>
        isStoreError(error, "storage_busy"),
      );
      release();
      await expect(writer.write([auditRow("id-2", "after")], action)).resolves.toBeUndefined();
    } finally {
      await writer.close();
    }
  });
});
