import type { MessageRecord, SignInStateOutcome, SignInTokenOutcome } from "./host-store";
import { all, one, type Queryable } from "./postgres-query";
import { messageFromRow, type MessageRow } from "./sqlite-rows";

/**
 * The SQL of what several nodes share, on Postgres: node leases, the replies of nodes that are
 * gone, and one-time sign-in tokens. `PostgresStore` runs these inside its transactions.
 */
export const postgresClusterTables = {
  /** Deletes expired leases, then interrupts the streaming replies no lease covers. */
  async interruptOrphans(db: Queryable, at: number): Promise<MessageRecord[]> {
    await db.query("DELETE FROM leases WHERE expires_at <= $1", [at]);
    return (
      await all<MessageRow>(
        db,
        `UPDATE messages SET status = 'interrupted', updated_at = $1
           WHERE status = 'streaming'
             AND (node_id IS NULL OR node_id NOT IN (SELECT node_id FROM leases))
           RETURNING *`,
        [at],
      )
    ).map(messageFromRow);
  },

  /** Interrupts the node's streaming replies. */
  async interruptNode(db: Queryable, nodeId: string, at: number): Promise<MessageRecord[]> {
    return (
      await all<MessageRow>(
        db,
        `UPDATE messages SET status = 'interrupted', updated_at = $1
           WHERE status = 'streaming' AND node_id = $2
           RETURNING *`,
        [at, nodeId],
      )
    ).map(messageFromRow);
  },

  /** Inserts the node's lease or moves its expiry. */
  async upsertLease(db: Queryable, nodeId: string, expiresAt: number): Promise<void> {
    await db.query(
      `INSERT INTO leases (node_id, expires_at) VALUES ($1, $2)
         ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at`,
      [nodeId, expiresAt],
    );
  },

  async deleteLease(db: Queryable, nodeId: string): Promise<void> {
    await db.query("DELETE FROM leases WHERE node_id = $1", [nodeId]);
  },

  async deleteExpiredTokens(db: Queryable, at: number): Promise<void> {
    await db.query("DELETE FROM sign_in_tokens WHERE expires_at <= $1", [at]);
  },

  /** Keeps a token's digest unless it is already kept. */
  async insertToken(db: Queryable, digest: string, expiresAt: number): Promise<void> {
    await db.query(
      "INSERT INTO sign_in_tokens (digest, expires_at) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING",
      [digest, expiresAt],
    );
  },

  /**
   * Spends the token at `at` when it is kept, unspent and unexpired. The UPDATE takes the row's
   * lock, so of two nodes spending at once the second waits, sees `spent_at` set, and changes
   * nothing.
   */
  async spendToken(db: Queryable, digest: string, at: number): Promise<SignInTokenOutcome> {
    const spent = await db.query(
      `UPDATE sign_in_tokens SET spent_at = $1
         WHERE digest = $2 AND spent_at IS NULL AND expires_at > $1`,
      [at, digest],
    );
    if ((spent.rowCount ?? 0) > 0) return "accepted";
    const row = await one<{ spent_at: number | null }>(
      db,
      "SELECT spent_at FROM sign_in_tokens WHERE digest = $1 AND expires_at > $2",
      [digest, at],
    );
    return row !== undefined && row.spent_at !== null ? "already-used" : "unknown";
  },

  async deleteExpiredStates(db: Queryable, at: number): Promise<void> {
    await db.query("DELETE FROM sign_in_states WHERE expires_at <= $1", [at]);
  },

  /** Keeps a sign-in state unless its digest is already kept. */
  async insertState(db: Queryable, digest: string, data: string, expiresAt: number): Promise<void> {
    await db.query(
      "INSERT INTO sign_in_states (digest, data, expires_at) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING",
      [digest, data, expiresAt],
    );
  },

  /**
   * Takes the state at `at` when it is kept, untaken and unexpired. As with tokens, the UPDATE
   * takes the row's lock, so of two nodes taking at once the second finds `taken_at` set.
   */
  async takeState(db: Queryable, digest: string, at: number): Promise<SignInStateOutcome> {
    const taken = await one<{ data: string }>(
      db,
      `UPDATE sign_in_states SET taken_at = $1
         WHERE digest = $2 AND taken_at IS NULL AND expires_at > $1
         RETURNING data`,
      [at, digest],
    );
    if (taken !== undefined) return { outcome: "accepted", data: taken.data };
    const row = await one<{ taken_at: number | null }>(
      db,
      "SELECT taken_at FROM sign_in_states WHERE digest = $1 AND expires_at > $2",
      [digest, at],
    );
    return row !== undefined && row.taken_at !== null
      ? { outcome: "already-used" }
      : { outcome: "unknown" };
  },
};
