// The shape every benchmark module hands to the runner, and the error that fails a run.

/** One measured subject of a benchmark: a baseline or the thing under test. */
export interface BenchRow {
  /** What was measured, e.g. "host: session.contextFor" or "baseline: by hand". */
  label: string;
  /** The median sample, in the result's unit. */
  median: number;
  /**
   * The 25th and 75th percentile samples (nearest rank), when the row has samples to rank: the
   * spread that shows whether a figure is steady enough to compare (a goal never counts as met
   * against a baseline whose p75/p25 is wide).
   */
  p25?: number;
  p75?: number;
  /** The 99th percentile sample (nearest rank), in the result's unit. */
  p99: number;
  /** How many samples the median and p99 come from. */
  n: number;
  /** Other figures of this row (sizes, lengths, memory, error counts), printed beside it. */
  extra?: Record<string, number | string>;
}

/** What one benchmark measured at one size. */
export interface BenchResult {
  /** Benchmark and size, e.g. "context-assembly/10000". */
  name: string;
  /** The unit of `median` and `p99`: "ms", "µs", "MB". */
  unit: string;
  /** Baselines and subjects, measured in the same run. */
  rows: BenchRow[];
  /** Subject over baseline, by a name that says which, e.g. "host / baseline (median)". */
  ratios?: Record<string, number>;
  /** Sentences the reader needs to read the figures right (what the baseline is, caveats). */
  notes?: string[];
}

/**
 * Whether a goal's figure meets it; "noisy baseline" when it would, but a baseline it is set
 * against is too noisy to count it (its p75/p25 is wide); or why there is no figure.
 */
export type GoalStatus = "met" | "not met" | "noisy baseline" | "not measured";

/** One row of the goals table. */
export interface GoalRow {
  /** What is measured, in the goal's words. */
  measure: string;
  /** The baseline of the same run, with its figure ("-" when it has none). */
  baseline: string;
  /** The host's figure. */
  now: string;
  /** Host over baseline, or the difference, as the goal is stated ("-" when it has none). */
  ratio: string;
  /** The goal, as it is stated in docs/performance.md. */
  goal: string;
  status: GoalStatus;
  /** Why the status is what it is, when the figures alone do not say (a noisy baseline). */
  note?: string;
  /** Which result the figure comes from, or which benchmark to run when there is none. */
  source: string;
}

/** What the runner passes to every benchmark. */
export interface BenchOptions {
  /** Tiny sizes and a handful of iterations, so `npm test` proves the benchmark still runs. */
  quick: boolean;
}

/** A benchmark module as the runner loads it. */
export interface BenchModule {
  run(options: BenchOptions): Promise<BenchResult[]>;
}

/**
 * A benchmark found a figure that breaks a promise the product makes (for example a context
 * longer than five reports), or could not measure one of its sizes. The runner prints it, keeps
 * the results it carries, and exits non-zero.
 */
export class BenchFailure extends Error {
  /** Stable code for scripts. */
  readonly code = "bench_failed";
  override readonly name = "BenchFailure";
  /** What was measured before the failure; the runner reports it too. */
  readonly results: BenchResult[];

  /**
   * @param message - what broke, and what to do about it.
   * @param results - the results measured before the failure, if any.
   */
  constructor(message: string, results: BenchResult[] = []) {
    super(message);
    this.results = results;
  }
}
