import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type {
  AuditQuery,
  AuditRecord,
  MessageRecord,
  NewAudit,
  SignInTokenOutcome,
} from "./host-store";
import { migrate } from "./migrations";
import { SqliteClusterTables } from "./sqlite-cluster-tables";
import { SqliteTables } from "./sqlite-tables";
import { toStoreError, type StoreAction } from "./store-error";
import {
  checkAuditLimit,
  checkLeaseTtl,
  defaultAuditLimit,
  requireText,
  storeClosed,
} from "./store-rules";

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** The clock, in ms since the epoch (tests inject one). Default `Date.now`. */
  now?: () => number;
  /** Makes ids that the caller did not give. Default `crypto.randomUUID`. */
  randomId?: () => string;
  /**
   * How long a write waits for another connection's lock before failing with `storage_busy`, in
   * ms. better-sqlite3 waits synchronously, blocking the event loop, so keep it short. Default 1000.
   */
  busyTimeoutMs?: number;
}

/**
 * The part of the SQLite store that belongs to no conversation: what several nodes coordinate
 * through (node leases, the replies of nodes that are gone, one-time sign-in tokens) and the audit
 * of page calls; with the connection's set-up, the clock and the transaction helpers the whole
 * store uses. `SqliteStore` adds users, conversations, messages, cards and approvals.
 */
export abstract class SqliteClusterStore {
  protected readonly database: Database.Database;
  protected readonly tables: SqliteTables;
  protected readonly cluster: SqliteClusterTables;
  protected readonly now: () => number;
  protected readonly randomId: () => string;

  /** Sets the connection up and migrates its schema (see `SqliteStore`). */
  protected constructor(database: Database.Database, options: SqliteStoreOptions) {
    this.database = database;
    this.tables = new SqliteTables(database);
    this.cluster = new SqliteClusterTables(database);
    this.now = options.now ?? Date.now;
    this.randomId = options.randomId ?? randomUUID;
    const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 1_000));
    try {
      database.pragma("journal_mode = WAL");
      database.pragma("foreign_keys = ON");
      database.pragma("synchronous = FULL");
      database.pragma(`busy_timeout = ${busyTimeoutMs}`);
      migrate(database);
    } catch (error) {
      throw toStoreError(error, {
        what: "The data file could not be prepared",
        outcome: "the server cannot start",
      });
    }
  }

  async markInterruptedReplies(): Promise<number> {
    return (await this.interruptOrphanedReplies()).length;
  }

  interruptOrphanedReplies(): Promise<MessageRecord[]> {
    return this.inTransaction({ what: "Interrupted replies could not be marked" }, () =>
      this.cluster.interruptOrphans(this.time()),
    );
  }

  interruptRepliesOf(nodeId: string): Promise<MessageRecord[]> {
    return this.inTransaction({ what: "The node's replies could not be marked interrupted" }, () =>
      this.cluster.interruptNode(nodeId, this.time()),
    );
  }

  renewLease(nodeId: string, ttlMs: number): Promise<void> {
    return this.inTransaction({ what: "The node's lease could not be renewed" }, () => {
      requireText(nodeId, "A node id");
      checkLeaseTtl(ttlMs);
      this.cluster.upsertLease(nodeId, this.time() + Math.ceil(ttlMs));
    });
  }

  releaseLease(nodeId: string): Promise<void> {
    return this.inTransaction({ what: "The node's lease could not be released" }, () =>
      this.cluster.deleteLease(nodeId),
    );
  }

  saveSignInToken(digest: string, expiresAt: number): Promise<void> {
    return this.inTransaction({ what: "The sign-in link could not be saved" }, () => {
      requireText(digest, "A token digest");
      this.cluster.deleteExpiredTokens(this.time());
      this.cluster.insertToken(digest, this.time(expiresAt));
    });
  }

  spendSignInToken(digest: string, now: number): Promise<SignInTokenOutcome> {
    return this.inTransaction({ what: "The sign-in link could not be checked" }, () => {
      const at = this.time(now);
      this.cluster.deleteExpiredTokens(at);
      return this.cluster.spendToken(digest, at);
    });
  }

  appendAudit(entry: NewAudit): Promise<AuditRecord> {
    return this.inTransaction({ what: "The audit entry could not be saved" }, () => {
      const record: AuditRecord = {
        ...entry,
        id: entry.id ?? this.randomId(),
        at: this.time(entry.at),
      };
      this.tables.insertAudit(record);
      return record;
    });
  }

  appendAudits(entries: readonly NewAudit[]): Promise<AuditRecord[]> {
    return this.inTransaction({ what: "The audit entries could not be saved" }, () =>
      entries.map((entry) => {
        const record: AuditRecord = {
          ...entry,
          id: entry.id ?? this.randomId(),
          at: this.time(entry.at),
        };
        this.tables.insertAudit(record);
        return record;
      }),
    );
  }

  listAudit(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.attempt({ what: "The audit could not be loaded" }, () => {
      const limit = query.limit ?? defaultAuditLimit;
      checkAuditLimit(limit);
      const filter: { conversationId?: string; userId?: string } = {};
      if (query.conversationId !== undefined) filter.conversationId = query.conversationId;
      if (query.userId !== undefined) filter.userId = query.userId;
      return this.tables.listAudit(filter, limit);
    });
  }

  close(): Promise<void> {
    if (this.database.open) {
      this.tables.clear();
      this.cluster.clear();
      this.database.close();
    }
    return Promise.resolve();
  }

  /** Runs `body` in one transaction, committed before the promise resolves. */
  protected inTransaction<T>(action: StoreAction, body: () => T): Promise<T> {
    return this.attempt(action, () => this.database.transaction(body)());
  }

  /** Runs `body`, turning any failure into a rejected {@link StoreError}. */
  protected attempt<T>(action: StoreAction, body: () => T): Promise<T> {
    try {
      if (!this.database.open) throw storeClosed(action);
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(toStoreError(error, action));
    }
  }

  /** A time for an INTEGER column: the given one (rounded) or the clock's. */
  protected time(given?: number): number {
    return Math.round(given ?? this.now());
  }
}
