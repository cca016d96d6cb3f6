// Medians, percentiles and the interleaved runner. Every benchmark measures its baseline in the
// same process and in alternation with the subject, so a noisy neighbour slows both alike.
import { performance } from "node:perf_hooks";
import type { BenchRow } from "./bench-result";

/**
 * The median of some samples (the mean of the two middle ones for an even count).
 *
 * @returns NaN for no samples.
 */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? Number.NaN;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * A percentile by nearest rank: the smallest sample with at least `fraction` of the samples at or
 * below it. With fewer than 100 samples, p99 is the largest sample.
 *
 * @param fraction - between 0 (exclusive) and 1, e.g. 0.99.
 * @returns NaN for no samples.
 * @throws {RangeError} for a fraction outside (0, 1].
 */
export function percentile(samples: readonly number[], fraction: number): number {
  if (!(fraction > 0 && fraction <= 1)) {
    throw new RangeError(`A percentile is a fraction in (0, 1], not ${fraction}.`);
  }
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** The 99th percentile by nearest rank (see {@link percentile}). */
export function p99(samples: readonly number[]): number {
  return percentile(samples, 0.99);
}

/**
 * A result row from samples: their median, p25 and p75 (the spread that shows a noisy figure),
 * p99 and count.
 *
 * @param extra - other figures to print beside the row.
 */
export function summarize(
  label: string,
  samples: readonly number[],
  extra?: Record<string, number | string>,
): BenchRow {
  return {
    label,
    median: median(samples),
    p25: samples.length === 0 ? Number.NaN : percentile(samples, 0.25),
    p75: samples.length === 0 ? Number.NaN : percentile(samples, 0.75),
    p99: p99(samples),
    n: samples.length,
    ...(extra === undefined ? {} : { extra }),
  };
}

/**
 * The ratio of two figures, rounded to two decimals.
 *
 * @returns NaN when the denominator is 0 or not a number.
 */
export function ratio(numerator: number, denominator: number): number {
  if (!Number.isFinite(denominator) || denominator === 0) return Number.NaN;
  return Math.round((numerator / denominator) * 100) / 100;
}

let lastValue: unknown;

/**
 * The value of the latest timed call (keeps timed work observable; mostly for debugging).
 *
 * @public
 */
export function lastTimedValue(): unknown {
  return lastValue;
}

/** One thing measured by {@link interleave}. */
export interface Subject<T> {
  label: string;
  /** One iteration; its value is the sample (use {@link interleaveTimings} to time instead). */
  run(): T | Promise<T>;
}

/** How long {@link interleave} goes on. */
export interface InterleaveOptions {
  /** Rounds run first and thrown away (JIT, caches, pools). */
  warmup: number;
  /** Rounds measured, at most. */
  iterations: number;
  /** Stop starting new rounds after this long, in ms (the warm-up counts); at least one round runs. */
  maxMs: number;
}

/**
 * Runs the subjects in alternation, one iteration each per round, and collects every value. The
 * order within a round rotates, so no subject always runs first (right after a GC, say, or with
 * warm caches from the one before). Every subject gets the same number of samples.
 *
 * @returns the samples of each subject, by label, in the order they were taken.
 * @throws what a subject throws (the run stops there).
 */
export async function interleave<T>(
  subjects: readonly Subject<T>[],
  options: InterleaveOptions,
): Promise<Map<string, T[]>> {
  const samples = new Map<string, T[]>(subjects.map((subject) => [subject.label, []]));
  const started = performance.now();
  const rounds = options.warmup + options.iterations;
  for (let round = 0; round < rounds; round += 1) {
    // Never stop during the warm-up's first measured round: every subject needs one sample.
    const measured = round - options.warmup;
    if (measured > 0 && performance.now() - started > options.maxMs) break;
    for (let offset = 0; offset < subjects.length; offset += 1) {
      const subject = subjects[(round + offset) % subjects.length];
      if (subject === undefined) continue;
      const value = await subject.run();
      if (measured >= 0) samples.get(subject.label)?.push(value);
    }
  }
  return samples;
}

/**
 * Like {@link interleave}, but each sample is how long one iteration took, in ms. With `batch`,
 * an iteration runs the subject that many times and the sample is the time of one call, so that
 * calls of a few microseconds are not lost in the clock's resolution.
 *
 * @returns the samples (ms per call) of each subject, by label.
 */
export async function interleaveTimings(
  subjects: readonly Subject<unknown>[],
  options: InterleaveOptions & { batch?: number },
): Promise<Map<string, number[]>> {
  const batch = Math.max(1, Math.floor(options.batch ?? 1));
  return interleave(
    subjects.map((subject) => ({
      label: subject.label,
      async run() {
        const begin = performance.now();
        for (let call = 0; call < batch; call += 1) {
          const value = subject.run();
          // Kept, so the engine cannot drop a call whose value nobody reads.
          lastValue = value instanceof Promise ? await value : value;
        }
        return (performance.now() - begin) / batch;
      },
    })),
    options,
  );
}
