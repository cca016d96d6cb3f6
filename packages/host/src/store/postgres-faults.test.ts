// The Postgres store when its server misbehaves: stopped mid-use, crashed, locked by another
// node, read-only, or never there. Each failure is a StoreError a person can read, and the store
// recovers by itself once the server is back, without being reopened.
import { freePort, startPostgres, type RunningPostgres } from "@mcp-chat-host/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HostStore } from "./host-store";
import { openStore } from "./open-store";

let server: RunningPostgres;
const stores: HostStore[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const client of clients.splice(0)) await client.end().catch(() => undefined);
});

afterAll(async () => {
  await server?.stop();
});

async function open(url: string, options: Parameters<typeof openStore>[1] = {}) {
  const store = await openStore(url, options);
  stores.push(store);
  return store;
}

/** A plain connection, standing for another node or the operator. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  clients.push(client);
  await client.connect();
  return client;
}

function textMessage(conversationId: string, text: string) {
  return {
    conversationId,
    chatId: "chat-1",
    role: "user" as const,
    parts: [{ type: "text" as const, text }],
  };
}

describe("PostgresStore faults", () => {
  it("fails clearly while the server is down after a crash, then recovers by itself", async () => {
    const store = await open(await server.createDatabase());
    const conversation = await store.createConversation("ada", { title: "Kept" });
    await store.appendMessage(textMessage(conversation.id, "before the crash"));

    await server.stopAbruptly();
    const append = store.appendMessage(textMessage(conversation.id, "while down"));
    await expect(append).rejects.toMatchObject({ code: "storage_failed", retryable: true });
    await expect(append).rejects.toThrow(
      "The message could not be saved (the database server cannot be reached); nothing was sent. Try again in a moment; if it keeps failing, ask the operator to check the database server.",
    );
    await expect(store.listConversations("ada")).rejects.toMatchObject({ code: "storage_failed" });

    await server.restart();
    // The same store object: its pool opens new connections once the server is back.
    expect(await store.getConversation("ada", conversation.id)).toMatchObject({ title: "Kept" });
    const after = await store.appendMessage(textMessage(conversation.id, "after the restart"));
    expect(after.seq).toBe(2);
    expect((await store.listMessages(conversation.id)).map((message) => message.parts)).toEqual([
      [{ type: "text", text: "before the crash" }],
      [{ type: "text", text: "after the restart" }],
    ]);
  });

  it("fails a write waiting inside its transaction when the server stops, and commits nothing", async () => {
    const url = await server.createDatabase();
    const store = await open(url, { lockTimeoutMs: 60_000 });
    const conversation = await store.createConversation("ada");
    // Another node holds the conversation's row, so the append waits inside its transaction.
    // The lock is held by a prepared transaction, which outlives the restart: were it held by a
    // session, the shutdown could end that session first and let the append commit before its
    // own session is ended.
    const other = await connect(url);
    await other.query("BEGIN");
    await other.query("SELECT id FROM conversations WHERE id = $1 FOR UPDATE", [conversation.id]);
    await other.query("PREPARE TRANSACTION 'holds-the-conversation'");
    const append = store.appendMessage(textMessage(conversation.id, "cut short"));
    const settled = append.then(
      () => "resolved",
      () => "rejected",
    );
    await waitForLockWaiter(url);

    await server.restart();
    expect(await settled).toBe("rejected");
    await expect(append).rejects.toMatchObject({ code: "storage_failed", retryable: true });
    expect(await store.listMessages(conversation.id)).toEqual([]);
    const operator = await connect(url);
    await operator.query("ROLLBACK PREPARED 'holds-the-conversation'");
    await expect(store.appendMessage(textMessage(conversation.id, "again"))).resolves.toMatchObject(
      {
        seq: 1,
      },
    );
  });

  it("maps a row another node keeps locked to a retryable storage_busy", async () => {
    const url = await server.createDatabase();
    const store = await open(url, { lockTimeoutMs: 100 });
    const conversation = await store.createConversation("ada");
    const other = await connect(url);
    await other.query("BEGIN");
    await other.query("SELECT id FROM conversations WHERE id = $1 FOR UPDATE", [conversation.id]);

    const append = store.appendMessage(textMessage(conversation.id, "blocked"));
    await expect(append).rejects.toMatchObject({ code: "storage_busy", retryable: true });
    await expect(append).rejects.toThrow(/busy.*Try again in a moment/);
    await other.query("ROLLBACK");
    await expect(store.appendMessage(textMessage(conversation.id, "free"))).resolves.toMatchObject({
      seq: 1,
    });
  });

  it("maps a read-only database to storage_failed with a message for the operator", async () => {
    const url = await server.createDatabase();
    const name = new URL(url).pathname.slice(1);
    await (await open(url)).createConversation("ada");
    const operator = await connect(server.url);
    await operator.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);

    const store = await open(url);
    const create = store.createConversation("bob");
    await expect(create).rejects.toMatchObject({ code: "storage_failed", retryable: false });
    await expect(create).rejects.toThrow(/read-only.*make the database writable/);
    expect(await store.listConversations("ada")).toHaveLength(1);
  });

  it("refuses to open a database that does not exist, or a server that is not there", async () => {
    const missing = openStore(server.url.replace(/\/postgres$/, "/no_such_database"));
    await expect(missing).rejects.toMatchObject({ code: "storage_failed", retryable: false });
    await expect(missing).rejects.toThrow(/could not be prepared.*check the database address/);

    const nowhere = openStore(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
    await expect(nowhere).rejects.toMatchObject({ code: "storage_failed", retryable: true });
    await expect(nowhere).rejects.toThrow(/cannot be reached\); the server cannot start/);
  });
});

/** Waits (bounded) until some session of the database waits for a lock. */
async function waitForLockWaiter(url: string): Promise<void> {
  const watcher = await connect(url);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const waiting = await watcher.query(
      "SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if ((waiting.rows[0] as { count: number }).count > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("No session started waiting for the lock within 5 seconds.");
}
