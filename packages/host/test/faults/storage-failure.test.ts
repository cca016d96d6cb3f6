// Fault: the database is locked by another connection, or the disk is full, when a person's
// message arrives. A lock that is let go within the store's waits costs the person nothing: the
// message is stored and answered. A lock held past them, or a full disk, gives the person a
// `storage` error saying the message was not saved; the message is not acknowledged, not stored
// and not announced, and the chat works again after.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../../src/mcp-chat-host";
import type { Session } from "../../src/session/session";
import { SqliteStore } from "../../src/store/sqlite-store";
import {
  exchange,
  greeterApp,
  receivedOf,
  startHost,
  type TestClient,
  type TestHost,
} from "../harness";

let host: TestHost | null = null;
const folders: string[] = [];
const connections: Database.Database[] = [];

afterEach(async () => {
  for (const connection of connections.splice(0)) if (connection.open) connection.close();
  await host?.close();
  host = null;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-storage-"));
  folders.push(folder);
  return join(folder, "host.db");
}

function session(session: Session): void {
  mcpChatHost(session.chat(), greeterApp(), { onAppCall: () => true });
}

/** The texts of the person's messages the tab was told about. */
function announcedPersonTexts(client: TestClient): string[] {
  return receivedOf(client, "message:created")
    .filter((created) => created.message.role === "user")
    .map((created) =>
      created.message.parts.map((part) => (part.type === "text" ? part.text : "")).join(""),
    );
}

describe("storage failing when a message arrives", () => {
  it("stores the message once another connection lets go of the write lock", async () => {
    const path = dataFile();
    let release = () => {};
    const waits: number[] = [];
    // The store's default waits with its timer replaced: the other connection commits while the
    // write waits. No busy timeout: the other connection is on this thread, it cannot commit
    // while SQLite waits.
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: {
        sleep: (ms) => {
          waits.push(ms);
          release();
          return Promise.resolve();
        },
      },
    });
    host = await startHost({ store, session });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await exchange(client, "chat-1", "hello", "message-first");
    const conversationId = first.reply.conversationId;

    const locker = new Database(path);
    connections.push(locker);
    locker.exec("BEGIN IMMEDIATE");
    release = () => {
      if (locker.inTransaction) locker.exec("COMMIT");
    };
    const second = await exchange(client, "chat-1", "second", "message-second");
    expect(second.reply.status).toBe("complete");
    expect(waits.length).toBeGreaterThan(0);
    expect(announcedPersonTexts(client)).toEqual(["hello", "second"]);
    expect(
      (await host.server.store.listMessages(conversationId)).map((message) => message.seq),
    ).toEqual([1, 2, 3, 4]);
  });

  it("refuses the message while another connection holds the write lock past every wait", async () => {
    const path = dataFile();
    // Every wait spent at once (and no busy timeout): the lock is still held after the last one.
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: { sleep: () => Promise.resolve() },
    });
    host = await startHost({ store, session });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await exchange(client, "chat-1", "hello", "message-first");
    const conversationId = first.reply.conversationId;

    const locker = new Database(path);
    connections.push(locker);
    locker.exec("BEGIN IMMEDIATE");
    const refused = await client.request("message:send", {
      chatId: "chat-1",
      text: "second",
      clientId: "message-second",
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: "storage",
        message:
          "The message could not be saved (the database is busy); nothing was sent. Try again in a moment.",
        retryable: true,
      },
    });
    locker.exec("ROLLBACK");
    locker.close();

    expect(announcedPersonTexts(client)).toEqual(["hello"]);
    const stored = await host.server.store.listMessages(conversationId);
    expect(stored.map((message) => [message.seq, message.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
    ]);
    // The same message sent again (same client id) is stored now: the refusal left nothing behind.
    const retried = await exchange(client, "chat-1", "second", "message-second");
    expect(retried.reply.status).toBe("complete");
    expect(announcedPersonTexts(client)).toEqual(["hello", "second"]);
    expect(
      (await host.server.store.listMessages(conversationId)).map((message) => message.seq),
    ).toEqual([1, 2, 3, 4]);
  });

  it("refuses the message when the disk is full, and takes it once there is space", async () => {
    const path = dataFile();
    const database = new Database(path);
    // The store takes an open connection: the seam to cap the file's size like a full disk.
    host = await startHost({ store: new SqliteStore(database), session });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await exchange(client, "chat-1", "hello", "message-first");
    const conversationId = first.reply.conversationId;

    const pages = Number(database.pragma("page_count", { simple: true }));
    database.pragma(`max_page_count = ${pages}`);
    const large = "a long message ".repeat(2_000);
    const refused = await client.request("message:send", {
      chatId: "chat-1",
      text: large,
      clientId: "message-large",
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: "storage",
        message:
          "The message could not be saved (the disk is full); nothing was sent. Try again when there is space.",
        retryable: false,
      },
    });
    expect(announcedPersonTexts(client)).toEqual(["hello"]);
    expect(
      (await host.server.store.listMessages(conversationId)).map((message) => message.seq),
    ).toEqual([1, 2]);

    database.pragma("max_page_count = 1000000");
    const retried = await exchange(client, "chat-1", large.trim(), "message-large");
    expect(retried.reply.status).toBe("complete");
    expect(
      (await host.server.store.listMessages(conversationId)).map((message) => message.seq),
    ).toEqual([1, 2, 3, 4]);
  });

  it("refuses the first message of a new conversation when the database stays locked", async () => {
    const path = dataFile();
    const store = new SqliteStore(new Database(path), {
      busyTimeoutMs: 0,
      busyRetry: { sleep: () => Promise.resolve() },
    });
    host = await startHost({ store, session });
    const client = await host.connect();
    await client.value("session:hello", {});

    const locker = new Database(path);
    connections.push(locker);
    locker.exec("BEGIN IMMEDIATE");
    const refused = await client.request("message:send", {
      chatId: "chat-1",
      text: "first",
      clientId: "message-first",
    });
    locker.exec("ROLLBACK");
    expect(refused).toEqual({
      ok: false,
      error: {
        code: "storage",
        message:
          "The message could not be saved (the database is busy); nothing was sent. Try again in a moment.",
        retryable: true,
      },
    });
    expect(await host.server.store.listConversations("operator")).toEqual([]);
    expect(announcedPersonTexts(client)).toEqual([]);

    const retried = await exchange(client, "chat-1", "first", "message-first");
    expect(retried.reply.status).toBe("complete");
  });
});
