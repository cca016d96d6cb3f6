import { createHash, randomBytes } from "node:crypto";

/** What {@link OneTimeTokens.consume} found. */
export type TokenCheck = "accepted" | "already-used" | "unknown";

/** Options of {@link OneTimeTokens}. */
export interface OneTimeTokensOptions {
  /** How many unused tokens may be outstanding; minting more forgets the oldest (default 16). */
  maxOutstanding?: number | undefined;
}

/** Tokens are kept as hashes, so lookups don't compare the secret itself byte by byte. */
function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * The single-use sign-in tokens of the token auth mode: 32 random bytes, base64url. A token is
 * accepted once; a second use is told apart from an unknown token so the page can say so.
 */
export class OneTimeTokens {
  private readonly outstanding = new Set<string>();
  private readonly used = new Set<string>();
  private readonly maxOutstanding: number;

  /** @param options - how many unused tokens may be outstanding. */
  constructor(options: OneTimeTokensOptions = {}) {
    this.maxOutstanding = options.maxOutstanding ?? 16;
  }

  /**
   * Mints a new token.
   *
   * @returns the token, to put in a sign-in URL.
   */
  mint(): string {
    const token = randomBytes(32).toString("base64url");
    this.outstanding.add(digest(token));
    // Sets iterate in insertion order, so the first entry is the oldest.
    while (this.outstanding.size > this.maxOutstanding) {
      const oldest = this.outstanding.values().next().value;
      if (oldest === undefined) break;
      this.outstanding.delete(oldest);
    }
    return token;
  }

  /**
   * Spends a token.
   *
   * @param token - the token from the URL.
   * @returns `accepted` the first time, `already-used` afterwards, `unknown` otherwise.
   */
  consume(token: string): TokenCheck {
    const hash = digest(token);
    if (this.outstanding.delete(hash)) {
      this.used.add(hash);
      if (this.used.size > 1_000) {
        const oldest = this.used.values().next().value;
        if (oldest !== undefined) this.used.delete(oldest);
      }
      return "accepted";
    }
    return this.used.has(hash) ? "already-used" : "unknown";
  }
}
