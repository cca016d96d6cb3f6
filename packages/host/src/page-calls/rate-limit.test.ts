import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe("RateLimiter", () => {
  it("allows the burst at once, then refuses, saying how long until a call would pass", () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ ratePerSecond: 20, burst: 40, now: clock.now });
    for (let call = 0; call < 40; call++)
      expect(limiter.take("card-1").ok, `call ${call}`).toBe(true);
    const refused = limiter.take("card-1");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBe(50);
  });

  it("refills at the sustained rate and never above the burst", () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ ratePerSecond: 20, burst: 40, now: clock.now });
    for (let call = 0; call < 40; call++) limiter.take("card-1");
    clock.advance(49);
    expect(limiter.take("card-1").ok).toBe(false);
    clock.advance(1);
    expect(limiter.take("card-1").ok).toBe(true);
    expect(limiter.take("card-1").ok).toBe(false);
    clock.advance(60_000);
    let allowed = 0;
    for (let call = 0; call < 100; call++) if (limiter.take("card-1").ok) allowed++;
    expect(allowed).toBe(40);
  });

  it("keeps one bucket per key, and forget() resets a key", () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 2, now: clock.now });
    limiter.take("a");
    limiter.take("a");
    expect(limiter.take("a").ok).toBe(false);
    expect(limiter.take("b").ok).toBe(true);
    limiter.forget("a");
    expect(limiter.take("a").ok).toBe(true);
  });

  it("drops idle full buckets when too many keys are tracked, without changing decisions", () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 1, now: clock.now, maxKeys: 3 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("c");
    clock.advance(1_000); // a, b, c are full again
    limiter.take("d");
    expect(limiter.size).toBe(1);
    expect(limiter.take("d").ok).toBe(false);
  });

  it("rejects nonsense settings", () => {
    expect(() => new RateLimiter({ ratePerSecond: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ burst: 0 })).toThrow(RangeError);
  });

  it("peeks without spending, and says how long until a request would pass", () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ ratePerSecond: 2, burst: 1, now: clock.now });
    expect(limiter.peek("card")).toEqual({ ok: true });
    expect(limiter.peek("card")).toEqual({ ok: true });
    expect(limiter.take("card").ok).toBe(true);
    expect(limiter.peek("card")).toEqual({ ok: false, retryAfterMs: 500 });
    clock.advance(500);
    expect(limiter.peek("card")).toEqual({ ok: true });
  });
});
