import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
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
import { BusyRetry, type BusyRetryOptions } from "./sqlite-busy-retry";
import { migrate } from "./sqlite-migrations";
import { SqliteAuditWriter } from "./sqlite-audit-writer";
import { insertAuditSql } from "./sqlite-card-tables";
import { auditValues } from "./store-rules";
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
  /**
   * What happens to an operation still refused as busy after the busy timeout: it is tried again
   * after each of these waits, on a timer, with later operations queued behind it in order
   * (see `BusyRetry`; default about 8 s in all). The audit writer thread does the same.
   */
  busyRetry?: BusyRetryOptions;
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
  private readonly busyTimeoutMs: number;
  private readonly busyRetryDelaysMs: readonly number[] | undefined;
  private readonly retry: BusyRetry;
  private auditWriter: SqliteAuditWriter | null = null;
  /** Where {@link useAuditWriter} said the writer thread should commit, until it starts. */
  private auditWriterPath: string | null = null;
  private auditWriterStarting: Promise<void> | null = null;
  private onAuditWriterFailed: ((error: unknown) => void) | undefined;
  /** The tail of each grant's queue of {@link withServerGrantLock} holders. */
  private readonly grantLocks = new Map<string, Promise<void>>();

  /** Sets the connection up and migrates its schema (see `SqliteStore`). */
  protected constructor(database: Database.Database, options: SqliteStoreOptions) {
    this.database = database;
    this.tables = new SqliteTables(database);
    this.cluster = new SqliteClusterTables(database);
    this.now = options.now ?? Date.now;
    this.randomId = options.randomId ?? randomUUID;
    const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 1_000));
    this.busyTimeoutMs = busyTimeoutMs;
    this.busyRetryDelaysMs = options.busyRetry?.delaysMs;
    this.retry = new BusyRetry(options.busyRetry);
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

  saveSignInState(digest: string, data: string, expiresAt: number): Promise<void> {
    return this.inTransaction({ what: "The sign-in could not be started" }, () => {
      requireText(digest, "A state digest");
      this.cluster.deleteExpiredStates(this.time());
      this.cluster.insertState(digest, data, this.time(expiresAt));
    });
  }

  getServerGrant(userId: string, server: string): Promise<ServerGrantRecord | null> {
    return this.attempt({ what: "The server sign-in could not be read" }, () => {
      const row = this.database
        .prepare<[string, string], { sealed: string; updated_at: number }>(
          "SELECT sealed, updated_at FROM server_grants WHERE user_id = ? AND server = ?",
        )
        .get(userId, server);
      return row === undefined
        ? null
        : { userId, server, sealed: row.sealed, updatedAt: row.updated_at };
    });
  }

  saveServerGrant(grant: ServerGrantRecord): Promise<void> {
    return this.inTransaction({ what: "The server sign-in could not be saved" }, () => {
      requireText(grant.sealed, "A sealed grant");
      this.database
        .prepare(
          `INSERT INTO server_grants (user_id, server, sealed, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (user_id, server) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
        )
        .run(grant.userId, grant.server, grant.sealed, this.time(grant.updatedAt));
    });
  }

  deleteServerGrant(userId: string, server: string): Promise<boolean> {
    return this.inTransaction({ what: "The server sign-in could not be removed" }, () => {
      const result = this.database
        .prepare("DELETE FROM server_grants WHERE user_id = ? AND server = ?")
        .run(userId, server);
      return result.changes > 0;
    });
  }

  listServerGrants(userId: string): Promise<string[]> {
    return this.attempt({ what: "The server sign-ins could not be listed" }, () =>
      this.database
        .prepare<[string], { server: string }>(
          "SELECT server FROM server_grants WHERE user_id = ? ORDER BY server",
        )
        .all(userId)
        .map((row) => row.server),
    );
  }

  listConnectors(userId: string): Promise<ConnectorRecord[]> {
    return this.attempt({ what: "Your added servers could not be listed" }, () =>
      this.database
        .prepare<[string], { name: string; url: string; created_at: number }>(
          "SELECT name, url, created_at FROM person_connectors WHERE user_id = ? ORDER BY name",
        )
        .all(userId)
        .map((row) => ({ userId, name: row.name, url: row.url, createdAt: row.created_at })),
    );
  }

  saveConnector(connector: ConnectorRecord): Promise<void> {
    return this.inTransaction({ what: "The server could not be added" }, () => {
      requireText(connector.name, "A server's name");
      requireText(connector.url, "A server's address");
      this.database
        .prepare(
          `INSERT INTO person_connectors (user_id, name, url, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (user_id, name) DO UPDATE SET url = excluded.url, created_at = excluded.created_at`,
        )
        .run(connector.userId, connector.name, connector.url, this.time(connector.createdAt));
    });
  }

  deleteConnector(userId: string, name: string): Promise<boolean> {
    return this.inTransaction({ what: "The server could not be removed" }, () => {
      const result = this.database
        .prepare("DELETE FROM person_connectors WHERE user_id = ? AND name = ?")
        .run(userId, name);
      return result.changes > 0;
    });
  }

  async withServerGrantLock<T>(userId: string, server: string, work: () => Promise<T>): Promise<T> {
    // One node holds a SQLite file: a chain of promises per grant is the whole lock.
    const key = `${userId}\n${server}`;
    const before = this.grantLocks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const chained = before.then(() => mine);
    this.grantLocks.set(key, chained);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.grantLocks.get(key) === chained) this.grantLocks.delete(key);
    }
  }

  takeSignInState(digest: string, now: number): Promise<SignInStateOutcome> {
    return this.inTransaction({ what: "The sign-in could not be checked" }, () => {
      const at = this.time(now);
      this.cluster.deleteExpiredStates(at);
      return this.cluster.takeState(digest, at);
    });
  }

  /**
   * Commits the audit from a worker thread with its own connection to `path` (this store's
   * file), so a commit's wait for the disk leaves the event loop; durability is the same
   * (`synchronous = FULL`). Until it is started, and if its thread ever stops, the audit is
   * written by this connection as before. `openStore` starts it for a file store.
   *
   * @throws StoreError when the worker cannot open the file (the store keeps working without it).
   */
  /**
   * Like {@link startAuditWriter}, but the thread starts with the first audit write (that batch
   * is committed by this connection, the later ones by the thread), so a server no one calls an
   * app on holds no thread and its memory. `openStore` uses it for a file store.
   *
   * @param onFailed - told when the thread could not start (the audit stays on this connection).
   */
  useAuditWriter(path: string, onFailed?: (error: unknown) => void): void {
    this.auditWriterPath = path;
    this.onAuditWriterFailed = onFailed;
  }

  /** Whether the audit is committed by the writer thread now (for health checks and tests). */
  get auditWriterRunning(): boolean {
    return this.auditWriter?.running ?? false;
  }

  async startAuditWriter(path: string): Promise<void> {
    if (this.auditWriter !== null) return;
    this.auditWriter = await SqliteAuditWriter.start({
      path,
      sql: insertAuditSql,
      busyTimeoutMs: this.busyTimeoutMs,
      ...(this.busyRetryDelaysMs === undefined
        ? {}
        : { busyRetryDelaysMs: this.busyRetryDelaysMs }),
    });
  }

  async appendAudit(entry: NewAudit): Promise<AuditRecord> {
    const [record] = await this.writeAudits([entry], {
      what: "The audit entry could not be saved",
    });
    if (record === undefined) throw new Error("The audit entry vanished while it was saved.");
    return record;
  }

  appendAudits(entries: readonly NewAudit[]): Promise<AuditRecord[]> {
    return this.writeAudits(entries, { what: "The audit entries could not be saved" });
  }

  async listAudit(query: AuditQuery = {}): Promise<AuditRecord[]> {
    // A read after a write sees it: the writer thread commits what it was given first.
    await this.auditWriter?.idle();
    return this.attempt({ what: "The audit could not be loaded" }, () => {
      const limit = query.limit ?? defaultAuditLimit;
      checkAuditLimit(limit);
      const filter: { conversationId?: string; userId?: string } = {};
      if (query.conversationId !== undefined) filter.conversationId = query.conversationId;
      if (query.userId !== undefined) filter.userId = query.userId;
      return this.tables.listAudit(filter, limit);
    });
  }

  /** Commits the entries in one transaction: on the writer thread when it runs, else here. */
  private writeAudits(entries: readonly NewAudit[], action: StoreAction): Promise<AuditRecord[]> {
    const writer = this.auditWriter;
    if (writer === null && this.auditWriterPath !== null && this.auditWriterStarting === null) {
      const path = this.auditWriterPath;
      this.auditWriterStarting = this.startAuditWriter(path).catch((error: unknown) => {
        this.onAuditWriterFailed?.(error);
      });
    }
    if (writer === null || !writer.running) {
      return this.inTransaction(action, () =>
        entries.map((entry) => {
          const record = this.auditRecord(entry);
          this.tables.insertAudit(record);
          return record;
        }),
      );
    }
    let records: AuditRecord[];
    try {
      if (!this.database.open) throw storeClosed(action);
      records = entries.map((entry) => this.auditRecord(entry));
    } catch (error) {
      return Promise.reject(toStoreError(error, action));
    }
    return writer.write(records.map(auditValues), action).then(() => records);
  }

  private auditRecord(entry: NewAudit): AuditRecord {
    return { ...entry, id: entry.id ?? this.randomId(), at: this.time(entry.at) };
  }

  async close(): Promise<void> {
    // The writer commits what it was given, then its thread ends; then this connection closes.
    this.auditWriterPath = null;
    await this.auditWriterStarting;
    // A write waiting for a busy database is still written (or fails) before the close.
    await this.retry.idle();
    await this.auditWriter?.close();
    if (this.database.open) {
      this.tables.clear();
      this.cluster.clear();
      this.database.close();
    }
  }

  /**
   * Runs `body` in one write transaction, committed before the promise resolves. It begins
   * IMMEDIATE: the write lock is taken first, so a wait for another connection's commit (the
   * audit writer thread's) is covered by the busy timeout. A deferred transaction would read
   * first and then ask for the lock, which SQLite refuses at once without waiting (a connection
   * holding a read snapshot cannot wait for a writer), or refuses because the snapshot it read
   * is no longer the newest (`SQLITE_BUSY_SNAPSHOT`).
   */
  protected inTransaction<T>(action: StoreAction, body: () => T): Promise<T> {
    return this.attempt(action, () => this.database.transaction(body).immediate());
  }

  /** Runs `body` in one read-only transaction (a consistent snapshot; it takes no write lock). */
  protected inReadTransaction<T>(action: StoreAction, body: () => T): Promise<T> {
    return this.attempt(action, () => this.database.transaction(body).deferred());
  }

  /**
   * Runs `body`, turning any failure into a rejected {@link StoreError}; one the database was too
   * busy for is tried again later, in order (see {@link BusyRetry}).
   */
  protected attempt<T>(action: StoreAction, body: () => T): Promise<T> {
    return this.retry.run(action, () => {
      if (!this.database.open) throw storeClosed(action);
      return body();
    });
  }

  /** A time for an INTEGER column: the given one (rounded) or the clock's. */
  protected time(given?: number): number {
    return Math.round(given ?? this.now());
  }
}
