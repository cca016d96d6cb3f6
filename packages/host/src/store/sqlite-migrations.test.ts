import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  latestSchemaVersion,
  migrate,
  migrations,
  schemaVersion,
  type Migration,
} from "./sqlite-migrations";

describe("migrate", () => {
  let database: Database.Database;

  beforeEach(() => {
    database = new Database(":memory:");
  });

  afterEach(() => {
    database.close();
  });

  function tables(): string[] {
    return (
      database
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
  }

  it("builds the schema on a new file once, and records its version", () => {
    expect(migrate(database)).toEqual(migrations.map((step) => step.version));
    expect(schemaVersion(database)).toBe(latestSchemaVersion);
    expect(tables()).toEqual([
      "approvals",
      "audit",
      "cards",
      "conversations",
      "leases",
      "messages",
      "person_connectors",
      "server_grants",
      "sign_in_states",
      "sign_in_tokens",
      "users",
    ]);
    expect(migrate(database)).toEqual([]);
  });

  it("applies only the steps a file has not run, keeping its data", () => {
    migrate(database);
    database.prepare("INSERT INTO users (id, name, created_at) VALUES ('ada', 'Ada', 1)").run();
    const next: Migration = {
      version: latestSchemaVersion + 1,
      description: "test step",
      up(target) {
        target.exec("ALTER TABLE users ADD COLUMN email TEXT");
      },
    };
    expect(migrate(database, [...migrations, next])).toEqual([latestSchemaVersion + 1]);
    expect(schemaVersion(database)).toBe(latestSchemaVersion + 1);
    expect(database.prepare("SELECT id, email FROM users").all()).toEqual([
      { id: "ada", email: null },
    ]);
  });

  it("rolls a failing step back whole and leaves the version where it was", () => {
    migrate(database);
    const broken: Migration = {
      version: latestSchemaVersion + 1,
      description: "fails half way",
      up(target) {
        target.exec("CREATE TABLE half_done (id TEXT)");
        target.exec("THIS IS NOT SQL");
      },
    };
    expect(() => migrate(database, [...migrations, broken])).toThrow();
    expect(schemaVersion(database)).toBe(latestSchemaVersion);
    expect(tables()).not.toContain("half_done");
  });

  it("refuses a schema newer than it knows", () => {
    database.pragma(`user_version = ${latestSchemaVersion + 5}`);
    expect(() => migrate(database)).toThrow(
      new RegExp(`schema ${latestSchemaVersion + 5}; this one knows up to ${latestSchemaVersion}`),
    );
  });

  it("adds messages.meta in step 2, keeping the messages a version 1 file holds", () => {
    migrate(database, migrations.slice(0, 1));
    database.exec(`
      INSERT INTO users (id, name, created_at) VALUES ('ada', 'Ada', 1);
      INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ('c', 'ada', 't', 1, 1);
      INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, created_at, updated_at)
        VALUES ('c', 'm', 'chat-1', 1, 'user', '[]', 'complete', 1, 1);
    `);
    expect(migrate(database, migrations.slice(0, 2))).toEqual([2]);
    expect(database.prepare("SELECT id, meta FROM messages").all()).toEqual([
      { id: "m", meta: null },
    ]);
  });

  it("adds audit.approval in step 3, keeping the audit a version 2 file holds", () => {
    migrate(database, migrations.slice(0, 2));
    database.exec(`
      INSERT INTO audit (id, at, user_id, session_id, conversation_id, instance_id, source, tool,
          verdict, reason, duration_ms)
        VALUES ('a', 1, 'ada', 's', 'c', 'card', 'app', 'tool', 'allowed', NULL, 2);
    `);
    expect(migrate(database, migrations.slice(0, 3))).toEqual([3]);
    expect(database.prepare("SELECT id, approval FROM audit").all()).toEqual([
      { id: "a", approval: null },
    ]);
  });

  it("adds messages.node_id, leases and sign-in tokens in step 4, keeping a version 3 file's messages", () => {
    migrate(database, migrations.slice(0, 3));
    database.exec(`
      INSERT INTO users (id, name, created_at) VALUES ('ada', 'Ada', 1);
      INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ('c', 'ada', 't', 1, 1);
      INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, created_at, updated_at)
        VALUES ('c', 'm', 'chat-1', 1, 'assistant', '[]', 'streaming', 1, 1);
    `);
    expect(migrate(database, migrations.slice(0, 4))).toEqual([4]);
    expect(database.prepare("SELECT id, status, node_id FROM messages").all()).toEqual([
      { id: "m", status: "streaming", node_id: null },
    ]);
    expect(tables()).toEqual(expect.arrayContaining(["leases", "sign_in_tokens"]));
  });
});
