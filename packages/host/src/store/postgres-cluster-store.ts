import { randomUUID } from "node:crypto";
import type {
  AuditQuery,
  AuditRecord,
  MessageRecord,
  NewAudit,
  ServerGrantRecord,
  ConnectorRecord,
  SignInStateOutcome,
  SignInTokenOutcome,
} from "./host-store";
import { postgresClusterTables as cluster } from "./postgres-cluster-tables";
import type { PostgresConnection, PostgresConnectionOptions } from "./postgres-connection";
import { postgresTables as tables, type Queryable } from "./postgres-tables";
import type { StoreAction } from "./store-error";
import { checkAuditLimit, checkLeaseTtl, defaultAuditLimit, requireText } from "./store-rules";

/** Options of the Postgres store. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** The clock, in ms since the epoch (tests inject one). Default `Date.now`. */
  now?: () => number;
  /** Makes ids that the caller did not give. Default `crypto.randomUUID`. */
  randomId?: () => string;
}

/**
 * The part of the Postgres store that belongs to no conversation: what several nodes coordinate
 * through (node leases, the replies of nodes that are gone, one-time sign-in tokens) and the audit
 * of page calls; with the connection, the clock and the transaction helpers the whole store uses.
 * `PostgresStore` adds users, conversations, messages, cards and approvals.
 */
export abstract class PostgresClusterStore {
  protected readonly connection: PostgresConnection;
  protected readonly now: () => number;
  protected readonly randomId: () => string;

  protected constructor(connection: PostgresConnection, options: PostgresStoreOptions) {
    this.connection = connection;
    this.now = options.now ?? Date.now;
    this.randomId = options.randomId ?? randomUUID;
  }

  async markInterruptedReplies(): Promise<number> {
    return (await this.interruptOrphanedReplies()).length;
  }

  interruptOrphanedReplies(): Promise<MessageRecord[]> {
    return this.inTransaction({ what: "Interrupted replies could not be marked" }, (db) =>
      cluster.interruptOrphans(db, this.time()),
    );
  }

  interruptRepliesOf(nodeId: string): Promise<MessageRecord[]> {
    return this.inTransaction(
      { what: "The node's replies could not be marked interrupted" },
      (db) => cluster.interruptNode(db, nodeId, this.time()),
    );
  }

  renewLease(nodeId: string, ttlMs: number): Promise<void> {
    return this.inTransaction({ what: "The node's lease could not be renewed" }, (db) => {
      requireText(nodeId, "A node id");
      checkLeaseTtl(ttlMs);
      return cluster.upsertLease(db, nodeId, this.time() + Math.ceil(ttlMs));
    });
  }

  releaseLease(nodeId: string): Promise<void> {
    return this.inTransaction({ what: "The node's lease could not be released" }, (db) =>
      cluster.deleteLease(db, nodeId),
    );
  }

  saveSignInToken(digest: string, expiresAt: number): Promise<void> {
    return this.inTransaction({ what: "The sign-in link could not be saved" }, async (db) => {
      requireText(digest, "A token digest");
      await cluster.deleteExpiredTokens(db, this.time());
      await cluster.insertToken(db, digest, this.time(expiresAt));
    });
  }

  spendSignInToken(digest: string, now: number): Promise<SignInTokenOutcome> {
    return this.inTransaction({ what: "The sign-in link could not be checked" }, async (db) => {
      const at = this.time(now);
      await cluster.deleteExpiredTokens(db, at);
      return cluster.spendToken(db, digest, at);
    });
  }

  saveSignInState(digest: string, data: string, expiresAt: number): Promise<void> {
    return this.inTransaction({ what: "The sign-in could not be started" }, async (db) => {
      requireText(digest, "A state digest");
      await cluster.deleteExpiredStates(db, this.time());
      await cluster.insertState(db, digest, data, this.time(expiresAt));
    });
  }

  getServerGrant(userId: string, server: string): Promise<ServerGrantRecord | null> {
    return this.read({ what: "The server sign-in could not be read" }, async (db) => {
      const result = await db.query<{ sealed: string; updated_at: string }>(
        "SELECT sealed, updated_at FROM server_grants WHERE user_id = $1 AND server = $2",
        [userId, server],
      );
      const row = result.rows[0];
      return row === undefined
        ? null
        : { userId, server, sealed: row.sealed, updatedAt: Number(row.updated_at) };
    });
  }

  saveServerGrant(grant: ServerGrantRecord): Promise<void> {
    return this.write({ what: "The server sign-in could not be saved" }, async (db) => {
      requireText(grant.sealed, "A sealed grant");
      await db.query(
        `INSERT INTO server_grants (user_id, server, sealed, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, server) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
        [grant.userId, grant.server, grant.sealed, this.time(grant.updatedAt)],
      );
    });
  }

  deleteServerGrant(userId: string, server: string): Promise<boolean> {
    return this.write({ what: "The server sign-in could not be removed" }, async (db) => {
      const result = await db.query(
        "DELETE FROM server_grants WHERE user_id = $1 AND server = $2",
        [userId, server],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  listServerGrants(userId: string): Promise<string[]> {
    return this.read({ what: "The server sign-ins could not be listed" }, async (db) => {
      const result = await db.query<{ server: string }>(
        "SELECT server FROM server_grants WHERE user_id = $1 ORDER BY server",
        [userId],
      );
      return result.rows.map((row) => row.server);
    });
  }

  listConnectors(userId: string): Promise<ConnectorRecord[]> {
    return this.read({ what: "Your added servers could not be listed" }, async (db) => {
      const result = await db.query<{ name: string; url: string; created_at: string }>(
        "SELECT name, url, created_at FROM person_connectors WHERE user_id = $1 ORDER BY name",
        [userId],
      );
      return result.rows.map((row) => ({
        userId,
        name: row.name,
        url: row.url,
        createdAt: Number(row.created_at),
      }));
    });
  }

  saveConnector(connector: ConnectorRecord): Promise<void> {
    return this.write({ what: "The server could not be added" }, async (db) => {
      requireText(connector.name, "A server's name");
      requireText(connector.url, "A server's address");
      await db.query(
        `INSERT INTO person_connectors (user_id, name, url, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, name) DO UPDATE SET url = excluded.url, created_at = excluded.created_at`,
        [connector.userId, connector.name, connector.url, this.time(connector.createdAt)],
      );
    });
  }

  deleteConnector(userId: string, name: string): Promise<boolean> {
    return this.write({ what: "The server could not be removed" }, async (db) => {
      const result = await db.query(
        "DELETE FROM person_connectors WHERE user_id = $1 AND name = $2",
        [userId, name],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  withServerGrantLock<T>(userId: string, server: string, work: () => Promise<T>): Promise<T> {
    // An advisory lock held by this transaction: every node on the database waits for it, and it
    // is released with the transaction (a crashed node's connection releases it too).
    return this.inTransaction({ what: "The server sign-in could not be locked" }, async (db) => {
      await db.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 20))", [
        `server-grant\n${userId}\n${server}`,
      ]);
      return work();
    });
  }

  takeSignInState(digest: string, now: number): Promise<SignInStateOutcome> {
    return this.inTransaction({ what: "The sign-in could not be checked" }, async (db) => {
      const at = this.time(now);
      await cluster.deleteExpiredStates(db, at);
      return cluster.takeState(db, digest, at);
    });
  }

  appendAudit(entry: NewAudit): Promise<AuditRecord> {
    return this.inTransaction({ what: "The audit entry could not be saved" }, async (db) => {
      const record: AuditRecord = {
        ...entry,
        id: entry.id ?? this.randomId(),
        at: this.time(entry.at),
      };
      await tables.insertAudit(db, record);
      return record;
    });
  }

  appendAudits(entries: readonly NewAudit[]): Promise<AuditRecord[]> {
    return this.inTransaction({ what: "The audit entries could not be saved" }, async (db) => {
      const records: AuditRecord[] = [];
      for (const entry of entries) {
        const record: AuditRecord = {
          ...entry,
          id: entry.id ?? this.randomId(),
          at: this.time(entry.at),
        };
        await tables.insertAudit(db, record);
        records.push(record);
      }
      return records;
    });
  }

  listAudit(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.read({ what: "The audit could not be loaded" }, (db) => {
      const limit = query.limit ?? defaultAuditLimit;
      checkAuditLimit(limit);
      const filter: { conversationId?: string; userId?: string } = {};
      if (query.conversationId !== undefined) filter.conversationId = query.conversationId;
      if (query.userId !== undefined) filter.userId = query.userId;
      return tables.listAudit(db, filter, limit);
    });
  }

  close(): Promise<void> {
    return this.connection.end();
  }

  /** Runs `body` in one transaction, committed before the promise resolves. */
  protected inTransaction<T>(
    action: StoreAction,
    body: (db: Queryable) => Promise<T>,
    isolation?: "REPEATABLE READ",
  ): Promise<T> {
    return this.connection.transaction(action, body, isolation);
  }

  /**
   * Runs one write statement on any pooled connection: a transaction of its own, committed when
   * the statement returns.
   */
  protected write<T>(action: StoreAction, body: (db: Queryable) => Promise<T>): Promise<T> {
    return this.connection.read(action, body);
  }

  /** Runs a read on any pooled connection. */
  protected read<T>(action: StoreAction, body: (db: Queryable) => Promise<T>): Promise<T> {
    return this.connection.read(action, body);
  }

  /** A time for a BIGINT column: the given one (rounded) or the clock's. */
  protected time(given?: number): number {
    return Math.round(given ?? this.now());
  }
}
