import { StoreError, type StoreAction } from "./store-error";

/** SQLSTATEs that mean "another transaction is in the way; the same request may work soon". */
const busyStates = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
  "57014", // query_canceled (statement_timeout)
  "53300", // too_many_connections
]);

/** SQLSTATEs of a server that is stopping, starting or gone. */
const unreachableStates = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, or recovering)
]);

/** Node's socket error codes that mean the server cannot be reached. */
const unreachableSocketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Turns whatever a Postgres call threw into a {@link StoreError}, with the same codes as the
 * SQLite store. A `StoreError` passes through unchanged. SQLSTATEs map as follows:
 * `53100` (disk full) → `storage_full`; `40001`, `40P01`, `55P03`, `57014`, `53300` →
 * `storage_busy` (retryable); `23505` → `conflict`; `23503` → `not_found`; a server that
 * cannot be reached (refused or dropped connection, `08xxx`, `57P01`-`57P03`, a connect timeout)
 * → `storage_failed`, retryable, since the pool reconnects by itself once the server is back;
 * everything else (read-only, unknown database, authentication) → `storage_failed`.
 *
 * @param error - the thrown value.
 * @param action - what was being done, for the message.
 * @returns the mapped error (never throws).
 */
export function toPostgresStoreError(error: unknown, action: StoreAction): StoreError {
  if (error instanceof StoreError) return error;
  const state = sqlStateOf(error);
  const outcome = action.outcome ?? "nothing was changed";
  const options = { cause: error };
  if (state === "53100") {
    return new StoreError(
      "storage_full",
      `${action.what} (the database's disk is full); ${outcome}. Try again when there is space.`,
      options,
    );
  }
  if (busyStates.has(state)) {
    return new StoreError(
      "storage_busy",
      `${action.what} (the database is busy); ${outcome}. Try again in a moment.`,
      { ...options, retryable: true },
    );
  }
  if (state === "23505") {
    return new StoreError(
      "conflict",
      `${action.what} (a record with that id already exists); ${outcome}. Use a new id.`,
      options,
    );
  }
  if (state === "23503") {
    return new StoreError(
      "not_found",
      `${action.what} (the conversation no longer exists); ${outcome}. Open another conversation.`,
      options,
    );
  }
  if (state === "25006") {
    return new StoreError(
      "storage_failed",
      `${action.what} (the database is read-only); ${outcome}. Ask the operator to make the database writable.`,
      options,
    );
  }
  if (isUnreachable(error, state)) {
    return new StoreError(
      "storage_failed",
      `${action.what} (the database server cannot be reached); ${outcome}. Try again in a moment; if it keeps failing, ask the operator to check the database server.`,
      { ...options, retryable: true },
    );
  }
  if (state === "3D000" || state.startsWith("28")) {
    return new StoreError(
      "storage_failed",
      `${action.what} (the database refused the connection: ${messageOf(error)}); ${outcome}. Ask the operator to check the database address and its credentials.`,
      options,
    );
  }
  return new StoreError(
    "storage_failed",
    `${action.what} (${messageOf(error)}); ${outcome}. Ask the operator to check the server's log.`,
    options,
  );
}

/** The five-character SQLSTATE of a Postgres error, or "" for anything else. */
function sqlStateOf(error: unknown): string {
  const code = codeOf(error);
  return /^[0-9A-Z]{5}$/.test(code) ? code : "";
}

/** The `code` property of an error, or "". */
function codeOf(error: unknown): string {
  if (typeof error !== "object" || error === null || !("code" in error)) return "";
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : "";
}

/** True when the error says the server is gone, stopping, starting or unreachable. */
function isUnreachable(error: unknown, state: string): boolean {
  if (state.startsWith("08") || unreachableStates.has(state)) return true;
  if (unreachableSocketCodes.has(codeOf(error))) return true;
  // node-postgres reports a dropped socket and a connect timeout in plain errors.
  return (
    error instanceof Error &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      error.message,
    )
  );
}

/** The error's message, or its text. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
