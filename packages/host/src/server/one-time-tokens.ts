import { createHash, randomBytes } from "node:crypto";

/** What {@link OneTimeTokens.consume} found. */
export type TokenCheck = "accepted" | "already-used" | "unknown";

/**
 * Where tokens are kept when several nodes serve the same people (the store's sign-in tokens):
 * a token minted on one node is spent once across all of them.
 */
export interface SharedTokenStore {
  /** Keeps a token's digest until `expiresAt` (ms since the epoch). */
  saveSignInToken(digest: string, expiresAt: number): Promise<void>;
  /** Spends a digest atomically across every node. */
  spendSignInToken(digest: string, now: number): Promise<TokenCheck>;
}

/** Options of {@link OneTimeTokens}. */
export interface OneTimeTokensOptions {
  /** How many unused tokens may be outstanding; minting more forgets the oldest (default 16). */
  maxOutstanding?: number | undefined;
  /** How long a token kept in a shared store stays valid, in ms (default 24 hours). */
  sharedLifetimeMs?: number | undefined;
  /** The clock (ms since the epoch). */
  now?: (() => number) | undefined;
}

/** Tokens are kept as hashes, so lookups don't compare the secret itself byte by byte. */
function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * The single-use sign-in tokens of the token auth mode: 32 random bytes, base64url. A token is
 * accepted once; a second use is told apart from an unknown token so the page can say so. Alone,
 * a node keeps them in memory; with {@link OneTimeTokens.share} they live in the shared store,
 * so a token minted on any node is spent once across the cluster.
 */
export class OneTimeTokens {
  private readonly outstanding = new Set<string>();
  private readonly used = new Set<string>();
  private readonly maxOutstanding: number;
  private readonly lifetimeMs: number;
  private readonly now: () => number;
  private shared: SharedTokenStore | null = null;
  private saving: Promise<unknown> = Promise.resolve();

  /** @param options - how many unused tokens may be outstanding, the shared lifetime, the clock. */
  constructor(options: OneTimeTokensOptions = {}) {
    this.maxOutstanding = options.maxOutstanding ?? 16;
    this.lifetimeMs = options.sharedLifetimeMs ?? 24 * 60 * 60 * 1_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * From now on tokens live in the shared store; the ones minted so far are saved there.
   *
   * @returns when they are saved.
   */
  async share(store: SharedTokenStore): Promise<void> {
    this.shared = store;
    const pending = [...this.outstanding];
    this.outstanding.clear();
    await Promise.all(pending.map((hash) => this.save(hash)));
  }

  /**
   * Mints a new token.
   *
   * @returns the token, to put in a sign-in URL.
   */
  mint(): string {
    const token = randomBytes(32).toString("base64url");
    const hash = tokenDigest(token);
    if (this.shared) {
      void this.save(hash);
      return token;
    }
    this.outstanding.add(hash);
    // Sets iterate in insertion order, so the first entry is the oldest.
    while (this.outstanding.size > this.maxOutstanding) {
      const oldest = this.outstanding.values().next().value;
      if (oldest === undefined) break;
      this.outstanding.delete(oldest);
    }
    return token;
  }

  /** Resolves once every token minted so far is saved (shared mode). */
  async saved(): Promise<void> {
    await this.saving;
  }

  /**
   * Spends a token.
   *
   * @param token - the token from the URL.
   * @returns `accepted` the first time, `already-used` afterwards, `unknown` otherwise.
   * @throws the shared store's error when it cannot be reached.
   */
  async consume(token: string): Promise<TokenCheck> {
    const hash = tokenDigest(token);
    if (this.shared) {
      await this.saved();
      return this.shared.spendSignInToken(hash, this.now());
    }
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

  private save(hash: string): Promise<void> {
    const store = this.shared;
    if (!store) return Promise.resolve();
    const write = store.saveSignInToken(hash, this.now() + this.lifetimeMs);
    // A failed save shows when the token is spent ("not valid"); later saves still run.
    this.saving = Promise.all([this.saving, write.catch(() => undefined)]);
    return write;
  }
}
