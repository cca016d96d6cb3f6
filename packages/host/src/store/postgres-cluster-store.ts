import { randomUUID } from "node:crypto";
import type {
  AuditQuery,
  AuditRecord,
  MessageRecord,
  NewAudit,
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
