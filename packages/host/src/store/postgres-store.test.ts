// What only the Postgres store has: migrations under an advisory lock when nodes start together,
// appends from several nodes to one conversation, and the mapping of Postgres's errors.
import { startPostgres, type RunningPostgres } from "@mcp-chat-host/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HostStore } from "./host-store";
import { openStore } from "./open-store";
import { migratePostgres, postgresMigrations, postgresSchemaVersion } from "./postgres-migrations";
import { toPostgresStoreError } from "./postgres-errors";

let server: RunningPostgres;
const stores: HostStore[] = [];
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const pool of pools.splice(0)) await pool.end();
});

afterAll(async () => {
  await server?.stop();
});

async function open(url: string): Promise<HostStore> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

function pool(url: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(created);
  return created;
}

describe("Postgres migrations", () => {
  it("migrate once when two nodes start on the same empty database at the same moment", async () => {
    const url = await server.createDatabase();
    const [first, second] = await Promise.all([
      migratePostgres(pool(url)),
      migratePostgres(pool(url)),
    ]);
    const versions = postgresMigrations.map((step) => step.version);
    // One of them ran every step; the other waited for the lock and found nothing to do.
    expect([first, second].sort((a, b) => b.length - a.length)).toEqual([versions, []]);
    const recorded = await pool(url).query<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version",
    );
    expect(recorded.rows.map((row) => row.version)).toEqual(versions);
  });

  it("opens two stores at once on an empty database, both usable", async () => {
    const url = await server.createDatabase();
    const [first, second] = await Promise.all([open(url), open(url)]);
    const conversation = await first.createConversation("ada", { title: "Shared" });
    expect(await second.getConversation("ada", conversation.id)).toMatchObject({ title: "Shared" });
    expect(await postgresSchemaVersion(pool(url))).toBe(postgresMigrations.length);
  });

  it("refuses a database written by a newer schema", async () => {
    const url = await server.createDatabase();
    await migratePostgres(pool(url));
    await pool(url).query(
      "INSERT INTO schema_migrations (version, description, applied_at) VALUES (99, 'future', 1)",
    );
    const opening = openStore(url);
    await expect(opening).rejects.toMatchObject({ code: "storage_failed" });
    await expect(opening).rejects.toThrow(/newer mcp-chat-host \(schema 99/);
  });

  it("rolls a failing step back whole and leaves the version where it was", async () => {
    const url = await server.createDatabase();
    await migratePostgres(pool(url));
    const broken = {
      version: postgresMigrations.length + 1,
      description: "fails half way",
      sql: "CREATE TABLE half_done (id TEXT); THIS IS NOT SQL",
    };
    await expect(migratePostgres(pool(url), [...postgresMigrations, broken])).rejects.toThrow();
    expect(await postgresSchemaVersion(pool(url))).toBe(postgresMigrations.length);
    const table = await pool(url).query("SELECT to_regclass('half_done') AS name");
    expect(table.rows[0]).toEqual({ name: null });
  });
});

describe("PostgresStore with several nodes", () => {
  it("numbers messages without a gap or a duplicate when two nodes append at once", async () => {
    const url = await server.createDatabase();
    const [first, second] = await Promise.all([open(url), open(url)]);
    const conversation = await first.createConversation("ada");
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) =>
        (index % 2 === 0 ? first : second).appendMessage({
          conversationId: conversation.id,
          chatId: "chat-1",
          role: "user",
          parts: [{ type: "text", text: `message ${index}` }],
        }),
      ),
    );
    expect(appended.map((message) => message.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_unused, index) => index + 1),
    );
    expect((await second.listMessages(conversation.id)).map((message) => message.seq)).toEqual(
      Array.from({ length: 20 }, (_unused, index) => index + 1),
    );
  });

  it("maps a duplicate id to conflict and writes nothing", async () => {
    const store = await open(await server.createDatabase());
    const entry = {
      id: "audit-1",
      userId: "ada",
      sessionId: "session-1",
      conversationId: null,
      instanceId: "host-1",
      source: "notes",
      tool: "delete-note",
      verdict: "allowed" as const,
      durationMs: 1,
    };
    await store.appendAudit(entry);
    await expect(store.appendAudits([{ ...entry, id: "audit-2" }, entry])).rejects.toMatchObject({
      code: "conflict",
      retryable: false,
    });
    expect((await store.listAudit()).map((record) => record.id)).toEqual(["audit-1"]);
  });
});

describe("toPostgresStoreError", () => {
  const action = { what: "The card could not be saved" };

  it.each([
    ["53100", "storage_full", false],
    ["40001", "storage_busy", true],
    ["40P01", "storage_busy", true],
    ["55P03", "storage_busy", true],
    ["53300", "storage_busy", true],
    ["23505", "conflict", false],
    ["23503", "not_found", false],
    ["25006", "storage_failed", false],
    ["57P01", "storage_failed", true],
    ["08006", "storage_failed", true],
    ["ECONNREFUSED", "storage_failed", true],
    ["3D000", "storage_failed", false],
    ["XX000", "storage_failed", false],
  ])("maps %s to %s", (sqlState, code, retryable) => {
    const error = Object.assign(new Error("postgres says no"), { code: sqlState });
    const mapped = toPostgresStoreError(error, action);
    expect(mapped).toMatchObject({ code, retryable });
    expect(mapped.message.startsWith("The card could not be saved (")).toBe(true);
    expect(mapped.message).toContain("nothing was changed");
    expect(mapped.cause).toBe(error);
  });

  it("reads a dropped connection as a server that cannot be reached", () => {
    const mapped = toPostgresStoreError(new Error("Connection terminated unexpectedly"), action);
    expect(mapped).toMatchObject({ code: "storage_failed", retryable: true });
    expect(mapped.message).toMatch(/cannot be reached.*Try again in a moment/);
  });
});
