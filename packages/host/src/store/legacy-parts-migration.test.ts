// Messages written before a reply became one stream of parts (a tool call as `tool-call`,
// `tool-result` and a `card` naming it) still load: the next schema step rewrites them, on a
// real SQLite file and on a real Postgres database, and the store reads them back in today's shape.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type RunningPostgres } from "@mcp-chat-host/testing";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, migrations } from "./sqlite-migrations";
import { openStore } from "./open-store";
import { migratePostgres, postgresMigrations } from "./postgres-migrations";
import { legacyReplyParts, upgradedReplyParts } from "../testing/legacy-reply";

/** The rows of one old conversation: its user, itself, the person's message and the reply. */
const rows = {
  user: ["ada", "Ada", 1],
  conversation: ["conv-1", "ada", "Maps", 1, 2],
  messages: [
    ["conv-1", "m1", "chat-1", 1, "user", JSON.stringify([{ type: "text", text: "Map?" }]), 1],
    ["conv-1", "m2", "chat-1", 2, "assistant", JSON.stringify(legacyReplyParts), 2],
  ],
};

describe("messages of the old shape", () => {
  let folder = "";
  let postgres: RunningPostgres | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-legacy-parts-"));
    postgres = await startPostgres();
  }, 120_000);

  afterAll(async () => {
    await postgres?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it("load from a SQLite file written before the step, in today's shape", async () => {
    const file = join(folder, "old.db");
    const database = new Database(file);
    migrate(
      database,
      migrations.filter((step) => step.version < 6),
    );
    database.prepare("INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)").run(...rows.user);
    database
      .prepare(
        "INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(...rows.conversation);
    const insert = database.prepare(
      `INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'complete', ?, ?)`,
    );
    for (const message of rows.messages) insert.run(...message, message.at(-1));
    database.close();

    const store = await openStore(`sqlite:${file}`);
    try {
      const messages = await store.listMessages("conv-1");
      expect(messages.map((message) => message.parts)).toEqual([
        [{ type: "text", text: "Map?" }],
        upgradedReplyParts,
      ]);
    } finally {
      await store.close();
    }
  });

  it("load from a Postgres database written before the step, in today's shape", async () => {
    const url = await postgres!.createDatabase();
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePostgres(
        pool,
        postgresMigrations.filter((step) => step.version < 3),
      );
      await pool.query("INSERT INTO users (id, name, created_at) VALUES ($1, $2, $3)", rows.user);
      await pool.query(
        "INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)",
        rows.conversation,
      );
      for (const message of rows.messages) {
        await pool.query(
          `INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'complete', $7, $7)`,
          message,
        );
      }
    } finally {
      await pool.end();
    }

    const store = await openStore(url);
    try {
      const messages = await store.listMessages("conv-1");
      expect(messages.map((message) => message.parts)).toEqual([
        [{ type: "text", text: "Map?" }],
        upgradedReplyParts,
      ]);
    } finally {
      await store.close();
    }
  });
});
