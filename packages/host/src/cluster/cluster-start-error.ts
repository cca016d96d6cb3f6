/** What a node could not reach when it started. */
export type ClusterDependency = "database" | "redis";

/**
 * Thrown by `listen()` when a node cannot start because the database or Redis is unreachable.
 * `message` is a plain sentence naming which one and what to check.
 */
export class ClusterStartError extends Error {
  override readonly name = "ClusterStartError";

  /**
   * @param dependency - which service was unreachable.
   * @param message - the sentence for the operator.
   * @param options - the underlying error.
   */
  constructor(
    readonly dependency: ClusterDependency,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A connection URL without its password or user, for messages and logs.
 *
 * @param url - `postgres://user:secret@db:5432/chat`, `redis://:secret@cache:6379`.
 * @returns the same URL with the credentials removed, or a generic name when it does not parse.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "(a URL that does not parse)";
  }
}

/**
 * An error's message with a connection URL's credentials taken out (a driver may quote the URL).
 *
 * @param message - the message.
 * @param url - the URL it may quote.
 * @returns the message, with the URL redacted and its password removed.
 */
export function withoutCredentials(message: string, url: string): string {
  let clean = message.split(url).join(redactUrl(url));
  try {
    const { password, username } = new URL(url);
    for (const secret of [password, decodeURIComponent(password), username]) {
      if (secret.length > 0) clean = clean.split(secret).join("…");
    }
  } catch {
    // Not a URL: nothing more to take out.
  }
  return clean;
}
