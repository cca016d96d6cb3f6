/**
 * Stable codes of {@link StoreError}.
 *
 * - `storage_full`: the disk (or the database's size cap) is full.
 * - `storage_busy`: another connection holds the database; retrying soon may work.
 * - `storage_failed`: any other storage failure (read-only file, I/O error, newer schema; on
 *   Postgres also a database server that cannot be reached, then with `retryable` true).
 * - `invalid_import`: a conversation document failed validation; `path` names the first problem.
 * - `invalid_record`: a record given to the store breaks a rule (empty title, scope mismatch).
 * - `invalid_spec`: the store specification (`"sqlite:<path>"`, `":memory:"`, `"postgres://..."`)
 *   is not understood.
 * - `not_found`: the conversation or message the write refers to does not exist.
 * - `conflict`: a record with that id already exists.
 * - `closed`: the store was closed.
 */
export type StoreErrorCode =
  | "storage_full"
  | "storage_busy"
  | "storage_failed"
  | "invalid_import"
  | "invalid_record"
  | "invalid_spec"
  | "not_found"
  | "conflict"
  | "closed";

/** Options of {@link StoreError}. */
export interface StoreErrorOptions {
  /** True when the same request may succeed if tried again later without any change. */
  retryable?: boolean;
  /** For `invalid_import`: where in the document the first problem is, e.g. `messages[2].role`. */
  path?: string;
  /** The underlying error (a SQLite error, a zod error). */
  cause?: unknown;
  /**
   * Maps the same cause again for another action (see {@link StoreError.restated}); set by the
   * mappers, which know the cause's kind.
   */
  restate?: (action: StoreAction) => StoreError;
}

/**
 * The one error class the store throws (its promises reject with it).
 * `message` is written for the person who reads it and says what to do next.
 */
export class StoreError extends Error {
  /** The stable code callers switch on. */
  readonly code: StoreErrorCode;
  /** True when the same request may succeed if tried again later. */
  readonly retryable: boolean;
  /** For `invalid_import`: where in the document the first problem is. */
  readonly path: string | undefined;
  readonly #restate: ((action: StoreAction) => StoreError) | undefined;

  /**
   * @param code - the stable code.
   * @param message - a sentence for the person, saying what to do next.
   * @param options - `retryable` (default false), `path`, `cause`.
   */
  constructor(code: StoreErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StoreError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.path = options.path;
    this.#restate = options.restate;
  }

  /**
   * The same failure in the words of another action ("The message could not be saved; nothing
   * was sent" where the store said "The user could not be saved"), mapped from the same cause by
   * the store that threw it; this error itself when it has no cause to map.
   */
  restated(action: StoreAction): StoreError {
    return this.#restate?.(action) ?? this;
  }
}

/** True when `value` is a {@link StoreError} (optionally with the given code). */
export function isStoreError(value: unknown, code?: StoreErrorCode): value is StoreError {
  return value instanceof StoreError && (code === undefined || value.code === code);
}

/**
 * What a failing store operation was doing, to build a message for the person.
 * `what` reads as the start of a sentence ("The message could not be saved");
 * `outcome` says what did not happen ("nothing was sent"; default "nothing was changed").
 */
export interface StoreAction {
  what: string;
  outcome?: string;
}

/**
 * Turns whatever a SQLite call threw into a {@link StoreError}.
 * A `StoreError` passes through unchanged. SQLite result codes map as follows:
 * `SQLITE_FULL*` → `storage_full`; `SQLITE_BUSY*` / `SQLITE_LOCKED*` → `storage_busy` (retryable);
 * primary-key or unique violations → `conflict`; foreign-key violations → `not_found`;
 * everything else (read-only, I/O, corrupt, unknown) → `storage_failed`.
 *
 * @param error - the thrown value.
 * @param action - what was being done, for the message.
 * @returns the mapped error (never throws).
 */
export function toStoreError(error: unknown, action: StoreAction): StoreError {
  if (error instanceof StoreError) return error;
  const sqliteCode = sqliteCodeOf(error);
  const outcome = action.outcome ?? "nothing was changed";
  const options = { cause: error, restate: (next: StoreAction) => toStoreError(error, next) };
  if (sqliteCode.startsWith("SQLITE_FULL")) {
    return new StoreError(
      "storage_full",
      `${action.what} (the disk is full); ${outcome}. Try again when there is space.`,
      options,
    );
  }
  if (sqliteCode.startsWith("SQLITE_BUSY") || sqliteCode.startsWith("SQLITE_LOCKED")) {
    return new StoreError(
      "storage_busy",
      `${action.what} (the database is busy); ${outcome}. Try again in a moment.`,
      { ...options, retryable: true },
    );
  }
  if (sqliteCode === "SQLITE_CONSTRAINT_PRIMARYKEY" || sqliteCode === "SQLITE_CONSTRAINT_UNIQUE") {
    return new StoreError(
      "conflict",
      `${action.what} (a record with that id already exists); ${outcome}. Use a new id.`,
      options,
    );
  }
  if (sqliteCode === "SQLITE_CONSTRAINT_FOREIGNKEY") {
    return new StoreError(
      "not_found",
      `${action.what} (the conversation no longer exists); ${outcome}. Open another conversation.`,
      options,
    );
  }
  if (sqliteCode.startsWith("SQLITE_READONLY")) {
    return new StoreError(
      "storage_failed",
      `${action.what} (the database is read-only); ${outcome}. Ask the operator to make the data file writable.`,
      options,
    );
  }
  if (isClosedConnectionError(error)) {
    return new StoreError(
      "closed",
      `${action.what} (the store is closed); ${outcome}. The server is shutting down; try again after it restarts.`,
      options,
    );
  }
  // Not the error's own text: it may carry a path or an address (the cause keeps it, for the log).
  const code = codeOf(error);
  const detail = /^[0-9A-Z_]{2,40}$/.test(code) ? `a storage error, ${code}` : "a storage error";
  return new StoreError(
    "storage_failed",
    `${action.what} (${detail}); ${outcome}. Ask the operator to check the server's log.`,
    options,
  );
}

/** The SQLite extended result code of a better-sqlite3 error, or "" for anything else. */
function sqliteCodeOf(error: unknown): string {
  if (typeof error !== "object" || error === null || !("code" in error)) return "";
  const code = (error as { code: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : "";
}

/** The `code` property of an error (SQLite's, or Node's `EACCES`), or "". */
function codeOf(error: unknown): string {
  if (typeof error !== "object" || error === null || !("code" in error)) return "";
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : "";
}

/** better-sqlite3 throws a TypeError with this text when a closed connection is used. */
function isClosedConnectionError(error: unknown): boolean {
  return error instanceof TypeError && /connection is not open/i.test(error.message);
}
