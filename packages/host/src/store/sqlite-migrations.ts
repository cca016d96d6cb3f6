import type Database from "better-sqlite3";
import { rewrittenParts } from "./legacy-message-parts";
import { StoreError } from "./store-error";

/** One forward step of the SQLite schema. */
export interface Migration {
  /** The schema version after this step (1, 2, ...). */
  version: number;
  /** What the step does, for the log. */
  description: string;
  /** Runs inside the transaction that also sets `user_version`. */
  up(database: Database.Database): void;
}

/**
 * The schema's history, oldest first. Append a new step to change the schema; never edit a step
 * that has shipped, because existing files have already run it.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: "users, conversations, messages, cards, approvals, audit",
    up(database) {
      database.exec(`
        CREATE TABLE users (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          created_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE conversations (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          title TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1))
        ) STRICT;
        CREATE INDEX conversations_by_user ON conversations(user_id, updated_at DESC);

        -- Message ids are unique within a conversation, so an imported copy keeps its ids.
        CREATE TABLE messages (
          conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
          id TEXT NOT NULL,
          chat_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
          parts TEXT NOT NULL,
          status TEXT NOT NULL
            CHECK (status IN ('complete', 'streaming', 'interrupted', 'error', 'stopped')),
          error TEXT,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (conversation_id, id),
          UNIQUE (conversation_id, seq)
        ) STRICT;
        CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming';

        CREATE TABLE cards (
          conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
          instance_id TEXT NOT NULL,
          chat_id TEXT,
          kind TEXT NOT NULL CHECK (kind IN ('card', 'pane')),
          source TEXT NOT NULL,
          tool TEXT NOT NULL,
          arguments TEXT NOT NULL,
          result TEXT,
          cancelled TEXT,
          title TEXT NOT NULL,
          checked INTEGER NOT NULL CHECK (checked IN (0, 1)),
          message_id TEXT,
          created_at INTEGER NOT NULL,
          closed_at INTEGER,
          PRIMARY KEY (conversation_id, instance_id)
        ) STRICT;

        CREATE TABLE approvals (
          conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
          scope TEXT NOT NULL CHECK (scope IN ('card', 'conversation')),
          instance_id TEXT,
          source TEXT NOT NULL,
          tool TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          CHECK ((scope = 'card') = (instance_id IS NOT NULL))
        ) STRICT;
        -- NULLs are distinct in a plain UNIQUE, so index the instance id with a stand-in.
        CREATE UNIQUE INDEX approvals_key
          ON approvals(conversation_id, scope, ifnull(instance_id, ''), source, tool);

        -- The audit is the operator's log: it outlives a deleted conversation and holds no
        -- arguments or results, only who called which tool and the verdict.
        CREATE TABLE audit (
          id TEXT PRIMARY KEY,
          at INTEGER NOT NULL,
          user_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          conversation_id TEXT,
          instance_id TEXT NOT NULL,
          source TEXT NOT NULL,
          tool TEXT NOT NULL,
          verdict TEXT NOT NULL CHECK (verdict IN ('allowed', 'refused', 'failed')),
          reason TEXT,
          duration_ms REAL NOT NULL
        ) STRICT;
        CREATE INDEX audit_by_time ON audit(at DESC);
        CREATE INDEX audit_by_conversation ON audit(conversation_id, at DESC);
        CREATE INDEX audit_by_user ON audit(user_id, at DESC);
      `);
    },
  },
  {
    version: 2,
    description: "messages.meta: a reply's token usage and whether its failure may be retried",
    up(database) {
      // JSON, so later reply facts need no new column; NULL for messages without any.
      database.exec("ALTER TABLE messages ADD COLUMN meta TEXT");
    },
  },
  {
    version: 3,
    description: "audit.approval: how the person's approval of a page call was settled",
    up(database) {
      // JSON ({ answeredBy, answer, scope, answeredAt }); NULL for calls nobody was asked about.
      database.exec("ALTER TABLE audit ADD COLUMN approval TEXT");
    },
  },
  {
    version: 4,
    description: "messages.node_id, leases and sign-in tokens: what several nodes share",
    up(database) {
      database.exec(`
        -- The node streaming a reply; NULL for messages written before nodes were named.
        ALTER TABLE messages ADD COLUMN node_id TEXT;

        -- A node is alive while its lease has not expired.
        CREATE TABLE leases (
          node_id TEXT PRIMARY KEY,
          expires_at INTEGER NOT NULL
        ) STRICT;

        -- One-time sign-in tokens, by digest; a spent one is kept until it expires.
        CREATE TABLE sign_in_tokens (
          digest TEXT PRIMARY KEY,
          expires_at INTEGER NOT NULL,
          spent_at INTEGER
        ) STRICT;
      `);
    },
  },
  {
    version: 5,
    description: "sign_in_states: OpenID Connect sign-ins in progress, shared by every node",
    up(database) {
      database.exec(`
        -- By digest of the flow's state; data is JSON (nonce, PKCE verifier). A taken one is
        -- kept until it expires, so a replayed answer is told apart from an unknown one.
        CREATE TABLE sign_in_states (
          digest TEXT PRIMARY KEY,
          data TEXT NOT NULL,
          expires_at INTEGER NOT NULL,
          taken_at INTEGER
        ) STRICT;
      `);
    },
  },
  {
    version: 6,
    description:
      "messages.parts: a model tool call is one `tool` part (was `tool-call`, `tool-result` and a card naming it)",
    up(database) {
      // Only messages that may hold a tool call are read; the text match is a coarse filter,
      // hasLegacyParts decides.
      const rows = database
        .prepare<[], { conversation_id: string; id: string; parts: string }>(
          `SELECT conversation_id, id, parts FROM messages
           WHERE parts LIKE '%"tool-call"%' OR parts LIKE '%"tool-result"%'
              OR parts LIKE '%"toolCallId"%'`,
        )
        .all();
      const update = database.prepare(
        "UPDATE messages SET parts = ? WHERE conversation_id = ? AND id = ?",
      );
      for (const row of rows) {
        const parts = rewrittenParts(row.parts);
        if (parts !== null) update.run(parts, row.conversation_id, row.id);
      }
    },
  },
  {
    version: 7,
    description: "server_grants: each person's sealed OAuth grant for each remote MCP server",
    up(database) {
      database.exec(`
        CREATE TABLE server_grants (
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          server TEXT NOT NULL,
          sealed TEXT NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (user_id, server)
        ) STRICT;
      `);
    },
  },
  {
    version: 8,
    description: "person_connectors: the remote MCP servers each person added themselves",
    up(database) {
      database.exec(`
        CREATE TABLE person_connectors (
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          url TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (user_id, name)
        ) STRICT;
      `);
    },
  },
];

/** The schema version this code writes. */
export const latestSchemaVersion = migrations.reduce(
  (latest, migration) => Math.max(latest, migration.version),
  0,
);

/**
 * Brings the database's schema up to {@link latestSchemaVersion}, one transaction per step.
 * The version is kept in SQLite's `user_version` pragma.
 *
 * @param database - an open better-sqlite3 connection.
 * @param steps - the migrations to apply (tests pass their own list).
 * @returns the versions that were applied, in order (empty when already current).
 * @throws StoreError `storage_failed` when the file's schema is newer than this code knows.
 */
export function migrate(
  database: Database.Database,
  steps: readonly Migration[] = migrations,
): number[] {
  const known = steps.reduce((latest, migration) => Math.max(latest, migration.version), 0);
  const current = schemaVersion(database);
  if (current > known) {
    throw new StoreError(
      "storage_failed",
      `The data file was written by a newer mcp-chat-host (schema ${current}; this one knows up to ${known}). ` +
        "Upgrade mcp-chat-host, or point it at another data file.",
    );
  }
  const applied: number[] = [];
  const pending = [...steps]
    .filter((migration) => migration.version > current)
    .sort((first, second) => first.version - second.version);
  for (const migration of pending) {
    database.transaction(() => {
      migration.up(database);
      // Integers only reach the pragma; it takes no bound parameters.
      database.pragma(`user_version = ${Math.trunc(migration.version)}`);
    })();
    applied.push(migration.version);
  }
  return applied;
}

/**
 * The schema version recorded in the file (0 for a new file).
 *
 * @param database - an open better-sqlite3 connection.
 * @returns the `user_version` pragma.
 */
export function schemaVersion(database: Database.Database): number {
  return Number(database.pragma("user_version", { simple: true }));
}
