import type { Pool, PoolClient } from "pg";
import { rewrittenParts } from "./legacy-message-parts";
import { StoreError } from "./store-error";

/** One forward step of the Postgres schema. */
export interface PostgresMigration {
  /** The schema version after this step (1, 2, ...). */
  version: number;
  /** What the step does, for the log. */
  description: string;
  /** SQL run inside the transaction that also records the version. */
  sql: string;
  /** Then, in the same transaction, a rewrite of rows the SQL cannot express. */
  rewrite?: (client: Pick<PoolClient, "query">) => Promise<void>;
}

/**
 * The Postgres schema's history, oldest first. Append a new step to change the schema; never edit
 * a step that has shipped, because existing databases have already run it.
 *
 * Step 1 is the same logical schema as SQLite's steps 1 to 4, step 2 is SQLite's step 5, step 3
 * SQLite's step 6, step 4 SQLite's step 7. Times
 * are milliseconds since the epoch (BIGINT); JSON is kept as text, so what is read back is byte for byte what was written;
 * `position` columns give the insertion order SQLite's `rowid` gives.
 */
export const postgresMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    description:
      "users, conversations, messages, cards, approvals, audit, leases and sign-in tokens",
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        position BIGINT GENERATED ALWAYS AS IDENTITY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        imported BOOLEAN NOT NULL DEFAULT FALSE,
        -- The highest message seq given out, so appends from several nodes count from one place.
        last_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX conversations_by_user ON conversations(user_id, updated_at DESC, position DESC);

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
        meta TEXT,
        node_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (conversation_id, id),
        UNIQUE (conversation_id, seq)
      );
      CREATE INDEX messages_streaming ON messages(node_id) WHERE status = 'streaming';

      CREATE TABLE cards (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        instance_id TEXT NOT NULL,
        position BIGINT GENERATED ALWAYS AS IDENTITY,
        chat_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('card', 'pane')),
        source TEXT NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        result TEXT,
        cancelled TEXT,
        title TEXT NOT NULL,
        checked BOOLEAN NOT NULL,
        message_id TEXT,
        created_at BIGINT NOT NULL,
        closed_at BIGINT,
        PRIMARY KEY (conversation_id, instance_id)
      );

      CREATE TABLE approvals (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        position BIGINT GENERATED ALWAYS AS IDENTITY,
        scope TEXT NOT NULL CHECK (scope IN ('card', 'conversation')),
        instance_id TEXT,
        source TEXT NOT NULL,
        tool TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        CHECK ((scope = 'card') = (instance_id IS NOT NULL))
      );
      -- NULLs are distinct in a plain UNIQUE, so index the instance id with a stand-in.
      CREATE UNIQUE INDEX approvals_key
        ON approvals(conversation_id, scope, coalesce(instance_id, ''), source, tool);

      -- The audit is the operator's log: it outlives a deleted conversation and holds no
      -- arguments or results, only who called which tool and the verdict.
      CREATE TABLE audit (
        id TEXT PRIMARY KEY,
        position BIGINT GENERATED ALWAYS AS IDENTITY,
        at BIGINT NOT NULL,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        conversation_id TEXT,
        instance_id TEXT NOT NULL,
        source TEXT NOT NULL,
        tool TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('allowed', 'refused', 'failed')),
        reason TEXT,
        duration_ms DOUBLE PRECISION NOT NULL,
        approval TEXT
      );
      CREATE INDEX audit_by_time ON audit(at DESC, position DESC);
      CREATE INDEX audit_by_conversation ON audit(conversation_id, at DESC);
      CREATE INDEX audit_by_user ON audit(user_id, at DESC);

      -- A node is alive while its lease has not expired.
      CREATE TABLE leases (
        node_id TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL
      );

      -- One-time sign-in tokens, by digest; a spent one is kept until it expires.
      CREATE TABLE sign_in_tokens (
        digest TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL,
        spent_at BIGINT
      );
    `,
  },
  {
    version: 2,
    description: "sign_in_states: OpenID Connect sign-ins in progress, shared by every node",
    sql: `
      -- By digest of the flow's state; data is JSON (nonce, PKCE verifier). A taken one is kept
      -- until it expires, so a replayed answer is told apart from an unknown one.
      CREATE TABLE sign_in_states (
        digest TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        taken_at BIGINT
      );
    `,
  },
  {
    version: 3,
    description:
      "messages.parts: a model tool call is one `tool` part (was `tool-call`, `tool-result` and a card naming it)",
    sql: "SELECT 1",
    rewrite: rewriteLegacyParts,
  },
  {
    version: 4,
    description: "server_grants: each person's sealed OAuth grant for each remote MCP server",
    sql: `
      CREATE TABLE server_grants (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        server TEXT NOT NULL,
        sealed TEXT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, server)
      );
    `,
  },
  {
    version: 5,
    description: "person_connectors: the remote MCP servers each person added themselves",
    sql: `
      CREATE TABLE person_connectors (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        url TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, name)
      );
    `,
  },
];

/** Postgres step 3 (SQLite's step 6): each message of the old shape gets its parts rewritten. */
async function rewriteLegacyParts(client: Pick<PoolClient, "query">): Promise<void> {
  const rows = await client.query<{ conversation_id: string; id: string; parts: string }>(
    `SELECT conversation_id, id, parts FROM messages
     WHERE parts LIKE '%"tool-call"%' OR parts LIKE '%"tool-result"%'
        OR parts LIKE '%"toolCallId"%'`,
  );
  for (const row of rows.rows) {
    const parts = rewrittenParts(row.parts);
    if (parts === null) continue;
    await client.query("UPDATE messages SET parts = $1 WHERE conversation_id = $2 AND id = $3", [
      parts,
      row.conversation_id,
      row.id,
    ]);
  }
}

/**
 * The advisory lock key the migrations hold: any 64-bit number the host alone uses
 * ("mcp-chat" in ASCII). Every node that starts takes it, so only one migrates at a time.
 */
const migrationLockKey = "7882267113072124276";

/** How long a starting node waits for another node's migration, in ms. */
const migrationLockTimeoutMs = 60_000;

/**
 * Brings the database's schema up to date, one transaction per step, holding a session-level
 * `pg_advisory_lock` for the whole run: two nodes starting at the same moment migrate once (the
 * second waits, then finds nothing to do). Versions are kept in `schema_migrations`.
 *
 * @param pool - the store's pool (one connection is used and given back).
 * @param steps - the migrations to apply (tests pass their own list).
 * @returns the versions this call applied, in order (empty when already current).
 * @throws StoreError `storage_failed` when the database's schema is newer than this code knows;
 *   anything the database throws, unmapped (the caller maps it).
 */
export async function migratePostgres(
  pool: Pool,
  steps: readonly PostgresMigration[] = postgresMigrations,
): Promise<number[]> {
  const client = await pool.connect();
  const onError = () => undefined;
  client.on("error", onError);
  try {
    await client.query(`SET lock_timeout = ${migrationLockTimeoutMs}`);
    await client.query("SELECT pg_advisory_lock($1::bigint)", [migrationLockKey]);
    try {
      return await applyPending(client, steps);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1::bigint)", [migrationLockKey]);
    }
  } finally {
    client.removeListener("error", onError);
    // The connection is closed rather than pooled: its session's lock timeout (and its lock, if
    // a failure left it held) must not reach the store's own transactions.
    client.release(true);
  }
}

/** Applies the steps the database has not run, under the lock. */
async function applyPending(
  client: PoolClient,
  steps: readonly PostgresMigration[],
): Promise<number[]> {
  const current = await postgresSchemaVersion(client);
  const known = steps.reduce((latest, step) => Math.max(latest, step.version), 0);
  if (current > known) {
    throw new StoreError(
      "storage_failed",
      `The database was written by a newer mcp-chat-host (schema ${current}; this one knows up to ${known}). ` +
        "Upgrade mcp-chat-host, or point it at another database.",
    );
  }
  const applied: number[] = [];
  const pending = [...steps]
    .filter((step) => step.version > current)
    .sort((first, second) => first.version - second.version);
  // Nothing to do writes nothing, so a current database opens even when it is read-only.
  if (pending.length === 0) return applied;
  await client.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      description TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
  for (const step of pending) {
    await client.query("BEGIN");
    try {
      await client.query(step.sql);
      await step.rewrite?.(client);
      await client.query(
        "INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)",
        [step.version, step.description, Date.now()],
      );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
    applied.push(step.version);
  }
  return applied;
}

/**
 * The schema version recorded in the database (0 when it has none yet).
 *
 * @param client - a connection, or the pool.
 */
export async function postgresSchemaVersion(client: Pick<PoolClient, "query">): Promise<number> {
  const exists = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (exists.rows[0]?.present !== true) return 0;
  const result = await client.query<{ version: number | null }>(
    "SELECT max(version) AS version FROM schema_migrations",
  );
  return result.rows[0]?.version ?? 0;
}
