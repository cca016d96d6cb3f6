import type Database from "better-sqlite3";
import type { MessageRecord, SignInStateOutcome, SignInTokenOutcome } from "./host-store";
import { messageFromRow, type MessageRow } from "./sqlite-rows";

/**
 * The SQL of what several nodes share, on SQLite: node leases, the replies of nodes that are
 * gone, and one-time sign-in tokens. Like
 * `SqliteTables`, it runs inside the transactions `SqliteStore` opens.
 */
export class SqliteClusterTables {
  private readonly database: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  /** @param database - the open connection, owned by the caller. */
  constructor(database: Database.Database) {
    this.database = database;
  }

  /** Forgets the prepared statements (before the connection closes). */
  clear(): void {
    this.statements.clear();
  }

  /**
   * Deletes the leases expired at `at`, then marks `interrupted` every `streaming` message whose
   * node holds no lease (or that names no node); returns the changed messages.
   */
  interruptOrphans(at: number): MessageRecord[] {
    this.statement("DELETE FROM leases WHERE expires_at <= ?").run(at);
    const rows = this.statement(
      `UPDATE messages SET status = 'interrupted', updated_at = ?
         WHERE status = 'streaming'
           AND (node_id IS NULL OR node_id NOT IN (SELECT node_id FROM leases))
         RETURNING *`,
    ).all(at) as MessageRow[];
    return rows.map(messageFromRow);
  }

  /** Marks `interrupted` every `streaming` message of the node; returns the changed messages. */
  interruptNode(nodeId: string, at: number): MessageRecord[] {
    const rows = this.statement(
      `UPDATE messages SET status = 'interrupted', updated_at = ?
         WHERE status = 'streaming' AND node_id = ?
         RETURNING *`,
    ).all(at, nodeId) as MessageRow[];
    return rows.map(messageFromRow);
  }

  /** Inserts the node's lease or moves its expiry to `expiresAt`. */
  upsertLease(nodeId: string, expiresAt: number): void {
    this.statement(
      `INSERT INTO leases (node_id, expires_at) VALUES (?, ?)
         ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at`,
    ).run(nodeId, expiresAt);
  }

  /** Deletes the node's lease. */
  deleteLease(nodeId: string): void {
    this.statement("DELETE FROM leases WHERE node_id = ?").run(nodeId);
  }

  /** Deletes the tokens expired at `at`. */
  deleteExpiredTokens(at: number): void {
    this.statement("DELETE FROM sign_in_tokens WHERE expires_at <= ?").run(at);
  }

  /** Keeps a token's digest unless it is already kept. */
  insertToken(digest: string, expiresAt: number): void {
    this.statement(
      "INSERT INTO sign_in_tokens (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING",
    ).run(digest, expiresAt);
  }

  /** Spends the token at `at` when it is kept, unspent and unexpired; says what it found. */
  spendToken(digest: string, at: number): SignInTokenOutcome {
    const spent = this.statement(
      `UPDATE sign_in_tokens SET spent_at = ?
         WHERE digest = ? AND spent_at IS NULL AND expires_at > ?`,
    ).run(at, digest, at).changes;
    if (spent > 0) return "accepted";
    const row = this.statement(
      "SELECT spent_at FROM sign_in_tokens WHERE digest = ? AND expires_at > ?",
    ).get(digest, at) as { spent_at: number | null } | undefined;
    return row !== undefined && row.spent_at !== null ? "already-used" : "unknown";
  }

  /** Deletes the sign-in states expired at `at`. */
  deleteExpiredStates(at: number): void {
    this.statement("DELETE FROM sign_in_states WHERE expires_at <= ?").run(at);
  }

  /** Keeps a sign-in state unless its digest is already kept. */
  insertState(digest: string, data: string, expiresAt: number): void {
    this.statement(
      "INSERT INTO sign_in_states (digest, data, expires_at) VALUES (?, ?, ?) ON CONFLICT (digest) DO NOTHING",
    ).run(digest, data, expiresAt);
  }

  /** Takes the state at `at` when it is kept, untaken and unexpired; says what it found. */
  takeState(digest: string, at: number): SignInStateOutcome {
    const taken = this.statement(
      `UPDATE sign_in_states SET taken_at = ?
         WHERE digest = ? AND taken_at IS NULL AND expires_at > ?
         RETURNING data`,
    ).get(at, digest, at) as { data: string } | undefined;
    if (taken !== undefined) return { outcome: "accepted", data: taken.data };
    const row = this.statement(
      "SELECT taken_at FROM sign_in_states WHERE digest = ? AND expires_at > ?",
    ).get(digest, at) as { taken_at: number | null } | undefined;
    return row !== undefined && row.taken_at !== null
      ? { outcome: "already-used" }
      : { outcome: "unknown" };
  }

  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.database.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
}
