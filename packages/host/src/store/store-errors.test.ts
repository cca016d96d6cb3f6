import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, parseStoreSpec } from "./open-store";
import { SqliteStore } from "./sqlite-store";
import { StoreError, toStoreError } from "./store-error";

describe("storage failures become StoreErrors and leave nothing partial", () => {
  let folder: string;
  let path: string;
  let database: Database.Database;
  let store: SqliteStore;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-store-errors-"));
    path = join(folder, "host.db");
    // The store takes an open connection, which is the seam for fault injection below.
    database = new Database(path);
    // No waits for a busy database: the mapping of its refusal is what is tested here (the waits
    // are in sqlite-busy-retry.test.ts).
    store = new SqliteStore(database, { busyTimeoutMs: 0, busyRetry: { delaysMs: [] } });
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("maps a full disk to storage_full and keeps the conversation as it was", async () => {
    const conversation = await store.createConversation("ada");
    await store.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "first" }],
    });
    const before = await store.getConversation("ada", conversation.id);
    const exported = await store.exportConversation("ada", conversation.id);
    // Cap the file at its current size, so the next page it needs is refused with SQLITE_FULL.
    const pages = Number(database.pragma("page_count", { simple: true }));
    database.pragma(`max_page_count = ${pages}`);

    const large = "x".repeat(64 * 1024);
    const append = store.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: large }],
    });
    await expect(append).rejects.toBeInstanceOf(StoreError);
    await expect(append).rejects.toMatchObject({ code: "storage_full", retryable: false });
    await expect(append).rejects.toThrow(
      "The message could not be saved (the disk is full); nothing was sent. Try again when there is space.",
    );
    expect((await store.listMessages(conversation.id)).map((message) => message.seq)).toEqual([1]);
    expect(await store.getConversation("ada", conversation.id)).toEqual(before);

    // An import that runs out of space half way is rolled back whole.
    const big = {
      ...exported!,
      messages: Array.from({ length: 40 }, (_, index) => ({
        ...exported!.messages[0]!,
        id: `message-${index}`,
        seq: index + 1,
        parts: [{ type: "text", text: large }],
      })),
    };
    await expect(store.importConversation("bob", big)).rejects.toMatchObject({
      code: "storage_full",
    });
    expect(await store.listConversations("bob")).toEqual([]);

    // Space again: the same write now succeeds.
    database.pragma("max_page_count = 1000000");
    await expect(
      store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: "user",
        parts: [],
      }),
    ).resolves.toMatchObject({ seq: 2 });
  });

  it("maps a read-only database to storage_failed with a message for the operator", async () => {
    const conversation = await store.createConversation("ada", { title: "Before" });
    database.pragma("query_only = ON");
    const rename = store.renameConversation("ada", conversation.id, "After");
    await expect(rename).rejects.toMatchObject({ code: "storage_failed", retryable: false });
    await expect(rename).rejects.toThrow(/read-only.*make the data file writable/);
    database.pragma("query_only = OFF");
    expect(await store.getConversation("ada", conversation.id)).toMatchObject({ title: "Before" });
  });

  it("maps a database locked by another connection to a retryable storage_busy", async () => {
    const other = new Database(path);
    try {
      other.exec("BEGIN IMMEDIATE");
      const create = store.createConversation("ada");
      await expect(create).rejects.toMatchObject({ code: "storage_busy", retryable: true });
      await expect(create).rejects.toThrow(/busy.*Try again in a moment/);
      other.exec("ROLLBACK");
    } finally {
      other.close();
    }
    expect(await store.listConversations("ada")).toEqual([]);
    await expect(store.createConversation("ada")).resolves.toMatchObject({ userId: "ada" });
  });

  it("refuses a data file written by a newer schema", async () => {
    await store.close();
    const raw = new Database(path);
    raw.pragma("user_version = 99");
    raw.close();
    const opening = openStore(`sqlite:${path}`);
    await expect(opening).rejects.toMatchObject({ code: "storage_failed" });
    await expect(opening).rejects.toThrow(/newer mcp-chat-host \(schema 99/);
  });

  it("reports a data folder that cannot be created", async () => {
    const blocker = join(folder, "a-file");
    writeFileSync(blocker, "not a folder");
    const opening = openStore(`sqlite:${join(blocker, "host.db")}`);
    await expect(opening).rejects.toMatchObject({ code: "storage_failed" });
    await expect(opening).rejects.toThrow(/could not be opened/);
  });
});

describe("store specifications", () => {
  it("parses memory and file specifications", () => {
    expect(parseStoreSpec(":memory:")).toEqual({ kind: "memory" });
    expect(parseStoreSpec("sqlite::memory:")).toEqual({ kind: "memory" });
    expect(parseStoreSpec("sqlite:./data/mcp-chat-host.db")).toEqual({
      kind: "sqlite-file",
      path: resolve("data", "mcp-chat-host.db"),
    });
    expect(parseStoreSpec("sqlite:~/chats.db")).toEqual({
      kind: "sqlite-file",
      path: join(homedir(), "chats.db"),
    });
  });

  it("parses a Postgres address, whichever scheme name it uses", () => {
    expect(parseStoreSpec("postgres://chat@db.internal:5432/chat")).toEqual({
      kind: "postgres",
      url: "postgres://chat@db.internal:5432/chat",
    });
    expect(parseStoreSpec(" postgresql://localhost/chat ")).toEqual({
      kind: "postgres",
      url: "postgresql://localhost/chat",
    });
  });

  it("never repeats a password of a specification it refuses", async () => {
    const refusal = openStore("mysql://chat:s3cret@localhost/chat");
    await expect(refusal).rejects.toMatchObject({ code: "invalid_spec" });
    await expect(refusal).rejects.toThrow(/mysql:\/\/chat:\*\*\*@localhost/);
    await expect(openStore("mysql://chat:s3cret@localhost/chat")).rejects.not.toThrow(/s3cret/);
  });

  it.each(["postgres://", "sqlite:", "", "data.db"])(
    "refuses %j with invalid_spec",
    async (spec) => {
      await expect(openStore(spec)).rejects.toMatchObject({ code: "invalid_spec" });
    },
  );
});

describe("toStoreError", () => {
  const action = { what: "The card could not be saved" };

  it.each([
    ["SQLITE_FULL", "storage_full", false],
    ["SQLITE_BUSY", "storage_busy", true],
    ["SQLITE_BUSY_SNAPSHOT", "storage_busy", true],
    ["SQLITE_LOCKED_SHAREDCACHE", "storage_busy", true],
    ["SQLITE_READONLY_DBMOVED", "storage_failed", false],
    ["SQLITE_IOERR_WRITE", "storage_failed", false],
    ["SQLITE_CONSTRAINT_PRIMARYKEY", "conflict", false],
    ["SQLITE_CONSTRAINT_FOREIGNKEY", "not_found", false],
  ])("maps %s to %s", (sqliteCode, code, retryable) => {
    const error = Object.assign(new Error("sqlite says no"), { code: sqliteCode });
    const mapped = toStoreError(error, action);
    expect(mapped).toMatchObject({ code, retryable });
    expect(mapped.message.startsWith("The card could not be saved (")).toBe(true);
    expect(mapped.message).toContain("nothing was changed");
    expect(mapped.cause).toBe(error);
  });

  it("passes a StoreError through and maps anything else to storage_failed", () => {
    const original = new StoreError("not_found", "Gone.");
    expect(toStoreError(original, action)).toBe(original);
    expect(toStoreError("boom", action)).toMatchObject({ code: "storage_failed" });
  });
});
