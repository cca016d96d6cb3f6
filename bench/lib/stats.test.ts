import { describe, expect, it } from "vitest";
import { interleave, interleaveTimings, median, p99, percentile, ratio, summarize } from "./stats";

describe("median and percentiles", () => {
  it("takes the middle sample, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("takes p99 by nearest rank: the largest of fewer than 100 samples, the 99th of 100", () => {
    expect(p99([3, 1, 2])).toBe(3);
    const hundred = Array.from({ length: 100 }, (_value, index) => 100 - index);
    expect(p99(hundred)).toBe(99);
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(() => percentile(hundred, 0)).toThrow(RangeError);
  });

  it("summarizes samples into a row, with their spread, and rounds ratios", () => {
    expect(summarize("x", [1, 2, 3, 4], { size: 4 })).toEqual({
      label: "x",
      median: 2.5,
      p25: 1,
      p75: 3,
      p99: 4,
      n: 4,
      extra: { size: 4 },
    });
    expect(summarize("x", [1, 2, 3], { size: 3 })).toEqual({
      label: "x",
      median: 2,
      p25: 1,
      p75: 3,
      p99: 3,
      n: 3,
      extra: { size: 3 },
    });
    expect(ratio(10, 3)).toBe(3.33);
    expect(ratio(1, 0)).toBeNaN();
  });
});

describe("interleave", () => {
  it("alternates the subjects, rotating who goes first, and drops the warm-up rounds", async () => {
    const calls: string[] = [];
    const subject = (label: string) => ({
      label,
      run: () => {
        calls.push(label);
        return calls.length;
      },
    });
    const samples = await interleave([subject("a"), subject("b")], {
      warmup: 1,
      iterations: 3,
      maxMs: 60_000,
    });
    expect(calls).toEqual(["a", "b", "b", "a", "a", "b", "b", "a"]);
    expect(samples.get("a")).toEqual([4, 5, 8]);
    expect(samples.get("b")).toEqual([3, 6, 7]);
  });

  it("stops starting rounds after maxMs, but always measures one", async () => {
    let runs = 0;
    const samples = await interleave(
      [
        {
          label: "slow",
          run: async () => {
            runs += 1;
            await new Promise((resolve) => setTimeout(resolve, 5));
            return runs;
          },
        },
      ],
      { warmup: 0, iterations: 1_000, maxMs: 0 },
    );
    expect(samples.get("slow")).toEqual([1]);
  });

  it("times batches and reports the time of one call", async () => {
    let calls = 0;
    const samples = await interleaveTimings(
      [
        {
          label: "count",
          run: () => {
            calls += 1;
          },
        },
      ],
      { warmup: 1, iterations: 2, maxMs: 60_000, batch: 50 },
    );
    expect(calls).toBe(150);
    expect(samples.get("count")).toHaveLength(2);
    for (const sample of samples.get("count") ?? []) expect(sample).toBeGreaterThanOrEqual(0);
  });
});
