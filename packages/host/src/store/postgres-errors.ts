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
 * What kind of failure a Postgres error is, as far as the person and the operator are concerned.
 * `refused-login`: the server refused the user or password (`28P01`, `28000`); `tls`: the TLS
 * handshake failed or the server offers none; `missing-database`: `3D000`.
 */
export type PostgresFailureKind =
  | "full"
  | "busy"
  | "conflict"
  | "missing-row"
  | "read-only"
  | "unreachable"
  | "refused-login"
  | "missing-database"
  | "tls"
  | "other";

/**
 * Classifies what a Postgres call threw (a node-postgres error, a socket error, a TLS error).
 *
 * @param error - the thrown value (not a `StoreError`: pass its `cause`).
 * @returns the kind.
 */
function postgresFailureKind(error: unknown): PostgresFailureKind {
  const state = sqlStateOf(error);
  if (state === "53100") return "full";
  if (busyStates.has(state)) return "busy";
  if (state === "23505") return "conflict";
  if (state === "23503") return "missing-row";
  if (state === "25006") return "read-only";
  if (state === "28P01" || state === "28000") return "refused-login";
  if (state === "3D000") return "missing-database";
  if (isTlsFailure(error)) return "tls";
  if (isUnreachable(error, state)) return "unreachable";
  return "other";
}

/**
 * Turns whatever a Postgres call threw into a {@link StoreError}, with the same codes as the
 * SQLite store. A `StoreError` passes through unchanged. SQLSTATEs map as follows:
 * `53100` (disk full) → `storage_full`; `40001`, `40P01`, `55P03`, `57014`, `53300` →
 * `storage_busy` (retryable); `23505` → `conflict`; `23503` → `not_found`; a server that
 * cannot be reached (refused or dropped connection, `08xxx`, `57P01`-`57P03`, a connect timeout)
 * → `storage_failed`, retryable, since the pool reconnects by itself once the server is back;
 * everything else (read-only, unknown database, a refused password, a failed TLS handshake) →
 * `storage_failed`. The message never quotes the driver: its text may carry the server's address,
 * a user name or a path (the cause keeps it, for the log).
 *
 * @param error - the thrown value.
 * @param action - what was being done, for the message.
 * @returns the mapped error (never throws).
 */
export function toPostgresStoreError(error: unknown, action: StoreAction): StoreError {
  if (error instanceof StoreError) return error;
  const outcome = action.outcome ?? "nothing was changed";
  const options = {
    cause: error,
    restate: (next: StoreAction) => toPostgresStoreError(error, next),
  };
  const sentence = (reason: string, advice: string) =>
    `${action.what} (${reason}); ${outcome}. ${advice}`;
  switch (postgresFailureKind(error)) {
    case "full":
      return new StoreError(
        "storage_full",
        sentence("the database's disk is full", "Try again when there is space."),
        options,
      );
    case "busy":
      return new StoreError(
        "storage_busy",
        sentence("the database is busy", "Try again in a moment."),
        { ...options, retryable: true },
      );
    case "conflict":
      return new StoreError(
        "conflict",
        sentence("a record with that id already exists", "Use a new id."),
        options,
      );
    case "missing-row":
      return new StoreError(
        "not_found",
        sentence("the conversation no longer exists", "Open another conversation."),
        options,
      );
    case "read-only":
      return new StoreError(
        "storage_failed",
        sentence("the database is read-only", "Ask the operator to make the database writable."),
        options,
      );
    case "unreachable":
      return new StoreError(
        "storage_failed",
        sentence(
          "the database server cannot be reached",
          "Try again in a moment; if it keeps failing, ask the operator to check the database server.",
        ),
        { ...options, retryable: true },
      );
    case "refused-login":
      return new StoreError(
        "storage_failed",
        sentence(
          "the database server refused the password (or user)",
          "Ask the operator to check the user and password in DATABASE_URL.",
        ),
        options,
      );
    case "missing-database":
      return new StoreError(
        "storage_failed",
        sentence(
          "the database named in DATABASE_URL does not exist",
          "Ask the operator to create it or to check the database address.",
        ),
        options,
      );
    case "tls":
      return new StoreError(
        "storage_failed",
        sentence(
          "the TLS connection to the database server failed",
          "Ask the operator to check sslmode in DATABASE_URL and the database's CA file.",
        ),
        options,
      );
    default:
      return new StoreError(
        "storage_failed",
        sentence(
          `the database answered with an error${describeCode(error)}`,
          "Ask the operator to check the server's log.",
        ),
        options,
      );
  }
}

/**
 * The sentence a node prints when its Postgres store cannot be opened at start: what failed and
 * which setting to check, without the server's address or the driver's own text.
 *
 * @param error - what opening threw (a `StoreError` is read through its `cause`).
 * @returns the sentence.
 */
export function postgresStartRefusal(error: unknown): string {
  const cause = error instanceof StoreError && error.cause !== undefined ? error.cause : error;
  const kind = postgresFailureKind(cause);
  const refusals: Partial<Record<PostgresFailureKind, string>> = {
    unreachable:
      "The database server cannot be reached; this node does not start. Check the host and port in DATABASE_URL (or --database) and that PostgreSQL is running.",
    "refused-login":
      "The database server refused the password (or user); this node does not start. Check the user and password in DATABASE_URL (or --database).",
    "missing-database":
      "The database named in DATABASE_URL (or --database) does not exist; this node does not start. Create it, or fix its name.",
    tls: "The TLS connection to the database server failed (its certificate was not trusted, or it offers no TLS); this node does not start. Check sslmode in DATABASE_URL and the CA file (--database-ca-file or PGSSLROOTCERT).",
    "read-only":
      "The database is read-only; this node does not start. Make it writable (default_transaction_read_only) or point DATABASE_URL at the primary.",
  };
  return (
    refusals[kind] ??
    `The database could not be prepared${describeCode(cause)}; this node does not start. The log has the database's own error.`
  );
}

/** ` (code X)` for an error with a short code, else "". */
function describeCode(error: unknown): string {
  const code = codeOf(error);
  return /^[0-9A-Z_]{2,40}$/.test(code) ? ` (code ${code})` : "";
}

/** True when a TLS handshake failed, the certificate was refused, or the server offers no TLS. */
function isTlsFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS/.test(code)) return true;
  return (
    error instanceof Error &&
    /The server does not support SSL connections|Hostname\/IP does not match certificate|self[- ]signed certificate/i.test(
      error.message,
    )
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
