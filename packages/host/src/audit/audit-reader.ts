import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { latestSchemaVersion, schemaVersion } from "../store/sqlite-migrations";
import type { AuditRecord } from "../store/host-store";
import { auditFromRow, type AuditRow } from "../store/sqlite-rows";
import { StoreError, toStoreError } from "../store/store-error";

/** Which audited page calls {@link AuditReader.entries} yields. */
export interface AuditFilter {
  userId?: string | undefined;
  conversationId?: string | undefined;
  /** Calls made at or after this time (ms since the epoch). */
  since?: number | undefined;
  /** Calls made before this time (ms since the epoch). */
  until?: number | undefined;
  /** Only the newest this many of the calls that match (still yielded oldest first). */
  limit?: number | undefined;
}

/** A read-only view of the audit in a data file (see {@link openAuditReader}). */
export interface AuditReader {
  /**
   * The audited page calls that match, oldest first, read row by row (a large audit is never
   * held in memory at once).
   */
  entries(filter?: AuditFilter): IterableIterator<AuditRecord>;
  /** Closes the file. */
  close(): void;
}

/**
 * Opens the audit of a host's SQLite data file for reading only: the operator's view of every
 * page call (`mcp-chat-host audit`). It works while the server runs (the file is in WAL mode,
 * so readers never block the writer and see every committed row) and never writes, migrates or
 * creates anything; rows the server still queues in memory appear once written (within ~50 ms).
 *
 * @param path - the data file (`<data folder>/mcp-chat-host.db`).
 * @returns the reader; close it when done.
 * @throws {StoreError} `storage_failed` when the file is missing, is not a host data file, or was
 *   written by a newer mcp-chat-host.
 */
export function openAuditReader(path: string): AuditReader {
  if (!existsSync(path)) {
    throw new StoreError(
      "storage_failed",
      `There is no data file at "${path}"; pass the --data folder the server uses.`,
    );
  }
  let database: Database.Database;
  try {
    database = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw toStoreError(error, {
      what: `The data file "${path}" could not be opened for reading`,
      outcome: "no audit was read",
    });
  }
  try {
    const version = schemaVersion(database);
    if (version > latestSchemaVersion) {
      throw new StoreError(
        "storage_failed",
        `The data file was written by a newer mcp-chat-host (schema ${version}; this one knows up to ${latestSchemaVersion}); read it with that version.`,
      );
    }
    const table = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'audit'")
      .get();
    if (table === undefined) {
      throw new StoreError(
        "storage_failed",
        `"${path}" is not an mcp-chat-host data file (it has no audit); pass the --data folder the server uses.`,
      );
    }
  } catch (error) {
    database.close();
    if (error instanceof StoreError) throw error;
    throw toStoreError(error, {
      what: `The data file "${path}" could not be read`,
      outcome: "no audit was read",
    });
  }
  return {
    entries(filter = {}) {
      const conditions: string[] = [];
      const values: unknown[] = [];
      const where = (condition: string, value: unknown) => {
        conditions.push(condition);
        values.push(value);
      };
      if (filter.userId !== undefined) where("user_id = ?", filter.userId);
      if (filter.conversationId !== undefined) where("conversation_id = ?", filter.conversationId);
      if (filter.since !== undefined) where("at >= ?", filter.since);
      if (filter.until !== undefined) where("at < ?", filter.until);
      const clause = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
      const sql =
        filter.limit === undefined
          ? `SELECT * FROM audit ${clause} ORDER BY at ASC, rowid ASC`
          : `SELECT * FROM (SELECT rowid AS position, * FROM audit ${clause}
               ORDER BY at DESC, rowid DESC LIMIT ?) ORDER BY at ASC, position ASC`;
      if (filter.limit !== undefined) values.push(filter.limit);
      const rows = database.prepare(sql).iterate(...values) as IterableIterator<AuditRow>;
      return (function* () {
        for (const row of rows) yield auditFromRow(row);
      })();
    },
    close() {
      database.close();
    },
  };
}
