import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import type { Logger } from "pino";
import type { HostStore } from "./host-store";
import type { PostgresConnectionOptions } from "./postgres-connection";
import {
  createPrivateFile,
  securePrivateFolder,
  tightenPrivateFiles,
  type ModeChange,
} from "./private-files";
import { SqliteStore, type SqliteStoreOptions } from "./sqlite-store";
import { StoreError, toStoreError } from "./store-error";

/** Options of {@link openStore}: those of the store it opens, and where to warn. */
export interface OpenStoreOptions extends SqliteStoreOptions, PostgresConnectionOptions {
  /** Told when file modes were loose: which were tightened, or that the folder is open to others. */
  logger?: Pick<Logger, "warn">;
}

/** Where a parsed store specification points. */
export type StoreLocation =
  { kind: "memory" } | { kind: "sqlite-file"; path: string } | { kind: "postgres"; url: string };

/**
 * Parses a store specification.
 *
 * - `":memory:"` (or `"sqlite::memory:"`): a SQLite database in memory, gone when closed.
 * - `"sqlite:<path>"`: a SQLite file; a relative path is resolved against the current working
 *   directory and a leading `~/` against the home folder.
 * - `"postgres://..."` or `"postgresql://..."`: a Postgres database (a `DATABASE_URL`), which
 *   several nodes may share.
 *
 * @returns the location.
 * @throws StoreError `invalid_spec` for anything else.
 */
export function parseStoreSpec(spec: string): StoreLocation {
  const trimmed = spec.trim();
  if (trimmed === ":memory:" || trimmed === "sqlite::memory:") return { kind: "memory" };
  if (/^postgres(ql)?:\/\/./.test(trimmed)) return { kind: "postgres", url: trimmed };
  if (trimmed.startsWith("sqlite:")) {
    const path = trimmed.slice("sqlite:".length);
    if (path.length > 0) {
      const expanded =
        path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
      return { kind: "sqlite-file", path: resolve(expanded) };
    }
  }
  throw new StoreError(
    "invalid_spec",
    `The store "${redactPassword(spec)}" is not understood; use "sqlite:<path to a file>", ":memory:" or a "postgres://" address.`,
  );
}

/**
 * Opens the store a specification names (see {@link parseStoreSpec}), creating the file's parent
 * folder and migrating its schema. The caller should then run `markInterruptedReplies()` once,
 * before serving anyone, so replies cut short by a crash show as interrupted.
 *
 * A file store is private to its owner, whatever the umask: a missing folder is created `0700`;
 * the database file is created `0600` before SQLite opens it, and an existing one (with its
 * `-wal`, `-shm` and `-journal` files, which a killed run may leave) is set to `0600` before the
 * open and checked again after the first write. SQLite creates its `-wal` and `-shm` files with
 * the database file's mode (and `fchmod`s them so), so they are born `0600` too. An existing
 * folder is not changed (it may be shared), but one open to other users is warned about.
 *
 * A file store commits the audit of page calls from a worker thread with a connection of its own
 * (see `SqliteAuditWriter`), so the wait for the disk is not on the event loop; if that thread
 * cannot start, the logger is told and the store's own connection writes the audit.
 *
 * A `postgres://` specification opens a `PostgresStore` (and migrates its schema under an
 * advisory lock, once even when several nodes start together); the file rules do not apply.
 *
 * @param spec - `"sqlite:<path>"`, `":memory:"` or `"postgres://user@host:port/database"`.
 * @param options - clock, id maker, busy timeout, pool size and timeouts, and the logger told of
 *   loose modes.
 * @returns the open store.
 * @throws StoreError `invalid_spec` for an unknown specification; `storage_failed` when the folder
 *   or file cannot be created, made private or opened, or the file's schema is newer than this code.
 */
export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<HostStore> {
  const location = parseStoreSpec(spec);
  if (location.kind === "postgres") {
    const { logger: _logger, busyTimeoutMs: _busyTimeoutMs, ...postgresOptions } = options;
    // Loaded only when chosen: a single server on SQLite never reads the Postgres client.
    const { PostgresStore } = await import("./postgres-store");
    return PostgresStore.open(location.url, postgresOptions);
  }
  const action = {
    what: `The data file ${location.kind === "memory" ? "in memory" : `"${location.path}"`} could not be opened`,
    outcome: "the server cannot start",
  };
  const { logger, ...storeOptions } = options;
  if (location.kind === "memory") {
    return openDatabase(() => new Database(":memory:"), storeOptions, action);
  }
  const files = storeFiles(location.path);
  const changes: ModeChange[] = [];
  try {
    const folder = dirname(location.path);
    if (existsSync(folder)) warnIfOpen(folder, logger);
    else securePrivateFolder(folder);
    createPrivateFile(location.path);
    changes.push(...tightenPrivateFiles(files));
  } catch (error) {
    throw toStoreError(error, action);
  }
  const store = await openDatabase(() => new Database(location.path), storeOptions, action);
  // Opening set up WAL and migrated: the -wal and -shm files exist now.
  try {
    changes.push(...tightenPrivateFiles(files));
  } catch (error) {
    await store.close();
    throw toStoreError(error, action);
  }
  // Started by the first audit write. Should it fail, the audit is still durable, only slower:
  // the store's own connection commits it.
  store.useAuditWriter(location.path, (error) => {
    logger?.warn(
      { err: error },
      "the audit writer thread could not start; the audit is written on the main thread",
    );
  });
  if (changes.length > 0) {
    logger?.warn(
      { changes },
      "the data files were readable by other users; their modes were tightened",
    );
  }
  return store;
}

/** The specification with any password in it replaced, for messages and logs. */
function redactPassword(spec: string): string {
  return spec.replace(/(:\/\/[^:/@]*:)[^@]*@/, "$1***@");
}

/** The database file and the files SQLite keeps beside it. */
function storeFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];
}

/** Opens the connection and the store on it; the connection is closed when the store can't be made. */
function openDatabase(
  connect: () => Database.Database,
  options: SqliteStoreOptions,
  action: { what: string; outcome: string },
): Promise<SqliteStore> {
  let database: Database.Database;
  try {
    database = connect();
  } catch (error) {
    return Promise.reject(toStoreError(error, action));
  }
  try {
    return Promise.resolve(new SqliteStore(database, options));
  } catch (error) {
    database.close();
    return Promise.reject(toStoreError(error, action));
  }
}

/** Warns when group or other users may list or enter the store's folder. */
function warnIfOpen(folder: string, logger: Pick<Logger, "warn"> | undefined): void {
  if (process.platform === "win32") return;
  const mode = statSync(folder).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  logger?.warn(
    { folder, mode: mode.toString(8).padStart(4, "0") },
    "the data folder is open to other users; the host's files in it are private, but run `chmod 700` on it or choose another folder",
  );
}
