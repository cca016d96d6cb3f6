/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Tokens added per second (sustained rate). Default 20. */
  ratePerSecond?: number | undefined;
  /** Bucket size (largest burst). Default 40. */
  burst?: number | undefined;
  /** Clock in ms (tests inject one). Default `performance.now`. */
  now?: (() => number) | undefined;
  /** Keys kept before idle full buckets are dropped. Default 10,000. */
  maxKeys?: number | undefined;
}

/** The answer of {@link RateLimiter.take}. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per key (per card for page tool calls): each key may spend `burst` at once and
 * `ratePerSecond` after that. It only decides: the caller words the refusal for whoever reads it.
 */
export class RateLimiter {
  private readonly rate: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly maxKeys: number;
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param options - rate, burst and clock.
   * @throws {RangeError} when the rate or burst is not a positive number.
   */
  constructor(options: RateLimiterOptions = {}) {
    this.rate = options.ratePerSecond ?? 20;
    this.burst = options.burst ?? 40;
    if (!(this.rate > 0) || !(this.burst >= 1)) {
      throw new RangeError("RateLimiter needs ratePerSecond > 0 and burst >= 1.");
    }
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /**
   * Spends tokens of a key's bucket.
   *
   * @param key - what is limited (a card's instance id).
   * @param cost - tokens to spend (default 1).
   * @returns ok, or how long until it would pass.
   */
  take(key: string, cost = 1): RateDecision {
    const now = this.now();
    const bucket = this.refill(key, now);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { ok: true };
    }
    const retryAfterMs = Math.ceil(((cost - bucket.tokens) / this.rate) * 1000);
    return { ok: false, retryAfterMs };
  }

  /**
   * Whether a key's bucket holds the tokens now, spending nothing: a request checked against
   * several buckets (its card's, its source's, its session's) spends from none unless all pass.
   *
   * @param key - what is limited.
   * @param cost - tokens the request would spend (default 1).
   * @returns ok, or how long until it would pass.
   */
  peek(key: string, cost = 1): RateDecision {
    const bucket = this.refill(key, this.now());
    if (bucket.tokens >= cost) return { ok: true };
    return { ok: false, retryAfterMs: Math.ceil(((cost - bucket.tokens) / this.rate) * 1000) };
  }

  /** Forgets a key (a card closed). */
  forget(key: string): void {
    this.buckets.delete(key);
  }

  /** How many keys are tracked. */
  get size(): number {
    return this.buckets.size;
  }

  private refill(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxKeys) this.dropFullBuckets(now);
      bucket = { tokens: this.burst, updatedAt: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsedSeconds * this.rate);
    bucket.updatedAt = now;
    return bucket;
  }

  /** A full bucket is the same as no bucket, so dropping it changes no decision. */
  private dropFullBuckets(now: number): void {
    for (const [key, bucket] of this.buckets) {
      const tokens = bucket.tokens + (Math.max(0, now - bucket.updatedAt) / 1000) * this.rate;
      if (tokens >= this.burst) this.buckets.delete(key);
    }
  }
}
