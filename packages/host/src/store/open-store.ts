import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import type { HostStore } from "./host-store";
import { SqliteStore, type SqliteStoreOptions } from "./sqlite-store";
import { StoreError, toStoreError } from "./store-error";

/** Options of {@link openStore}: those of the store it opens. */
export type OpenStoreOptions = SqliteStoreOptions;

/** Where a parsed store specification points. */
export type StoreLocation = { kind: "memory" } | { kind: "sqlite-file"; path: string };

/**
 * Parses a store specification.
 *
 * - `":memory:"` (or `"sqlite::memory:"`): a SQLite database in memory, gone when closed.
 * - `"sqlite:<path>"`: a SQLite file; a relative path is resolved against the current working
 *   directory and a leading `~/` against the home folder.
 *
 * @returns the location.
 * @throws StoreError `invalid_spec` for anything else.
 */
export function parseStoreSpec(spec: string): StoreLocation {
  const trimmed = spec.trim();
  if (trimmed === ":memory:" || trimmed === "sqlite::memory:") return { kind: "memory" };
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
    `The store "${spec}" is not understood; use "sqlite:<path to a file>" or ":memory:".`,
  );
}

/**
 * Opens the store a specification names (see {@link parseStoreSpec}), creating the file's parent
 * folder and migrating its schema. The caller should then run `markInterruptedReplies()` once,
 * before serving anyone, so replies cut short by a crash show as interrupted.
 *
 * @param spec - `"sqlite:<path>"` or `":memory:"`.
 * @param options - clock, id maker, busy timeout.
 * @returns the open store.
 * @throws StoreError `invalid_spec` for an unknown specification; `storage_failed` when the folder
 *   or file cannot be created or opened, or the file's schema is newer than this code.
 */
export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<HostStore> {
  const location = parseStoreSpec(spec);
  const action = {
    what: `The data file ${location.kind === "memory" ? "in memory" : `"${location.path}"`} could not be opened`,
    outcome: "the server cannot start",
  };
  let database: Database.Database;
  try {
    if (location.kind === "memory") {
      database = new Database(":memory:");
    } else {
      mkdirSync(dirname(location.path), { recursive: true });
      database = new Database(location.path);
    }
  } catch (error) {
    throw toStoreError(error, action);
  }
  try {
    return new SqliteStore(database, options);
  } catch (error) {
    database.close();
    throw toStoreError(error, action);
  }
}
