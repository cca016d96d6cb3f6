import pg from "pg";
import type { Queryable } from "./postgres-tables";
import { toPostgresStoreError } from "./postgres-errors";
import type { StoreAction } from "./store-error";
import { storeClosed } from "./store-rules";

/** Options of the Postgres store's pool. */
export interface PostgresConnectionOptions {
  /** The most connections the pool opens. Default 10. */
  maxConnections?: number;
  /**
   * How long a write waits for a row lock another node holds before failing with `storage_busy`,
   * in ms (Postgres's `lock_timeout`). Default 5000.
   */
  lockTimeoutMs?: number;
  /** How long opening a connection may take before the call fails, in ms. Default 5000. */
  connectionTimeoutMs?: number;
  /**
   * A PEM file of the CA that signed the database server's certificate (`--database-ca-file`,
   * `PGSSLROOTCERT`): it becomes the URL's `sslrootcert` unless the URL names one, with
   * `sslmode=verify-full` unless the URL sets a mode.
   */
  caFile?: string;
}

/**
 * The connection string with a CA file added as libpq spells it (node-postgres reads
 * `sslrootcert` and `sslmode` from the URL, and the URL's TLS settings replace a separate `ssl`
 * option, so the URL is where they must go).
 *
 * @param url - the `postgres://` URL.
 * @param caFile - the CA's PEM file, or undefined.
 * @returns the URL to connect with.
 */
function withCaFile(url: string, caFile: string | undefined): string {
  if (caFile === undefined) return url;
  const parsed = new URL(url);
  if (!parsed.searchParams.has("sslrootcert")) parsed.searchParams.set("sslrootcert", caFile);
  if (!parsed.searchParams.has("sslmode")) parsed.searchParams.set("sslmode", "verify-full");
  return parsed.toString();
}

/** The OID of Postgres's `int8` (BIGINT): the store's times, which fit a JavaScript number. */
const bigintOid = 20;

/** Reads BIGINT columns as numbers (times in ms stay far below 2^53); other types as pg does. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === bigintOid && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

/**
 * The pool of one Postgres store: transactions and reads on pooled connections, every failure
 * mapped to a `StoreError`, and a closed flag so calls after `end()` reject with `closed`.
 */
export class PostgresConnection {
  /** The pool (the migrations use it directly). */
  readonly pool: pg.Pool;
  private closed = false;

  /**
   * @param url - a `postgres://` or `postgresql://` connection string.
   * @param options - pool size and timeouts.
   */
  constructor(url: string, options: PostgresConnectionOptions = {}) {
    this.pool = new pg.Pool({
      connectionString: withCaFile(url, options.caFile),
      max: options.maxConnections ?? 10,
      lock_timeout: options.lockTimeoutMs ?? 5_000,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
      application_name: "mcp-chat-host",
      types,
    });
    // An idle connection the server dropped (a restart, a failover) is removed from the pool,
    // which opens a new one for the next call; without a listener the process would crash.
    this.pool.on("error", () => undefined);
  }

  /**
   * Runs `body` in one transaction on one connection, committed before the promise resolves; on
   * any failure it is rolled back and the error mapped. A connection that failed is dropped.
   */
  async transaction<T>(
    action: StoreAction,
    body: (db: Queryable) => Promise<T>,
    isolation?: "REPEATABLE READ",
  ): Promise<T> {
    if (this.closed) throw storeClosed(action);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.mapped(error, action);
    }
    let broken: Error | undefined;
    // A connection lost between two statements emits `error`; keep it so it is not reused.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on("error", onError);
    try {
      await client.query(isolation === undefined ? "BEGIN" : `BEGIN ISOLATION LEVEL ${isolation}`);
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch (rollbackError) {
        broken ??=
          rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw this.mapped(error, action);
    } finally {
      client.removeListener("error", onError);
      client.release(broken);
    }
  }

  /** Runs a read on any pooled connection. */
  async read<T>(action: StoreAction, body: (db: Queryable) => Promise<T>): Promise<T> {
    if (this.closed) throw storeClosed(action);
    try {
      return await body(this.pool);
    } catch (error) {
      throw this.mapped(error, action);
    }
  }

  /** Closes the pool; later calls reject with `closed`. Safe to call twice. */
  async end(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** The store error for a failure; `closed` when the store was closed meanwhile. */
  private mapped(error: unknown, action: StoreAction) {
    return this.closed ? storeClosed(action) : toPostgresStoreError(error, action);
  }
}
