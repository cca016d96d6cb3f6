// What every goal row is made of: finding a run's results and rows by name, printing a figure
// with its spread, and the verdict, which never counts a goal met on a noisy baseline.
import type { BenchResult, BenchRow, GoalRow, GoalStatus } from "./bench-result";
import { formatFigure } from "./report";

/**
 * A baseline whose p75 is more than this many times its p25 is noisy, so a goal set against it
 * could be met by the noise alone. Sub-millisecond floors showed 1.75-1.9× on a calm run (GC and
 * scheduling jitter of a 0.1 ms call) and 2.2-4.6× with the two cores busy (docs/performance.md).
 */
export const NOISY_SPREAD = 2;

/** Results whose name is `<benchmark>` or `<benchmark>/<size>`, largest numeric size last. */
export function resultsOf(results: readonly BenchResult[], benchmark: string): BenchResult[] {
  const sized = results.filter(
    (result) => result.name === benchmark || result.name.startsWith(`${benchmark}/`),
  );
  return sized.sort((a, b) => sizeOf(a) - sizeOf(b));
}

/** The numeric size of a result named `<benchmark>/<size>`, else 0. */
export function sizeOf(result: BenchResult): number {
  const size = Number(result.name.split("/")[1]);
  return Number.isFinite(size) ? size : 0;
}

/** The result of the benchmark's largest size. */
export function largest(
  results: readonly BenchResult[],
  benchmark: string,
): BenchResult | undefined {
  return resultsOf(results, benchmark).at(-1);
}

/** The result itself when it is named exactly `name`. */
export function named(result: BenchResult | undefined, name: string): BenchResult | undefined {
  return result?.name === name ? result : undefined;
}

/** The first row whose label contains every one of `words` (case-insensitive). */
export function rowWith(result: BenchResult | undefined, ...words: string[]): BenchRow | undefined {
  return result?.rows.find((row) =>
    words.every((word) => row.label.toLowerCase().includes(word.toLowerCase())),
  );
}

/** The first numeric extra of a row whose key contains `word` (case-insensitive). */
export function extraWith(row: BenchRow | undefined, word: string): number | undefined {
  const entry = Object.entries(row?.extra ?? {}).find(([key]) =>
    key.toLowerCase().includes(word.toLowerCase()),
  );
  return typeof entry?.[1] === "number" ? entry[1] : undefined;
}

/** A figure and its unit, or "-". */
export function figure(value: number | undefined, unit: string): string {
  return value === undefined ? "-" : `${formatFigure(value)} ${unit}`;
}

/** A row's median with its spread: `0.685 ms (p25 0.610, p75 0.802, p99 3.10)`. */
export function withSpread(row: BenchRow | undefined, unit: string): string {
  if (row === undefined) return "-";
  const spread =
    row.p25 === undefined || row.p75 === undefined
      ? ""
      : `p25 ${formatFigure(row.p25)}, p75 ${formatFigure(row.p75)}, `;
  return `${figure(row.median, unit)} (${spread}p99 ${formatFigure(row.p99)})`;
}

/** A row's p75 over its p25, when it has both and a p25 above 0. */
function spreadOf(row: BenchRow | undefined): number | undefined {
  if (row?.p25 === undefined || row.p75 === undefined || !(row.p25 > 0)) return undefined;
  return row.p75 / row.p25;
}

/** Host over baseline, as `2.67×`. */
export function times(host: number | undefined, baseline: number | undefined): string {
  return host === undefined || baseline === undefined || baseline === 0
    ? "-"
    : `${formatFigure(host / baseline)}×`;
}

/** Host minus baseline, as `+0.860 ms`. */
export function plus(host: number | undefined, baseline: number | undefined, unit: string): string {
  return host === undefined || baseline === undefined
    ? "-"
    : `${host >= baseline ? "+" : "−"}${formatFigure(Math.abs(host - baseline))} ${unit}`;
}

/** Whether a measured figure meets its goal (no baseline's noise to weigh). */
export function status(measured: boolean, met: boolean): GoalStatus {
  if (!measured) return "not measured";
  return met ? "met" : "not met";
}

/**
 * The status of a goal set against baselines: "not met" when the figure misses it, "noisy
 * baseline" when it would meet it but a baseline's p75/p25 is over {@link NOISY_SPREAD}, else
 * "met". A noisy baseline is named in the note either way.
 *
 * @param baselines - each baseline the goal compares against, by the name the note gives it.
 */
export function verdict(
  met: boolean,
  baselines: Record<string, BenchRow | undefined>,
): Pick<GoalRow, "status" | "note"> {
  const noisy = Object.entries(baselines).flatMap(([name, row]) => {
    const spread = spreadOf(row);
    return spread !== undefined && spread > NOISY_SPREAD
      ? [`${name}'s p75/p25 is ${formatFigure(spread)}× (over ${NOISY_SPREAD}×)`]
      : [];
  });
  if (noisy.length === 0) return { status: met ? "met" : "not met" };
  const outcome = met ? "the figures would meet the goal" : "the figures miss the goal";
  return {
    status: met ? "noisy baseline" : "not met",
    note: `noisy baseline: ${noisy.join("; ")}; ${outcome}. Run it again on a quiet machine.`,
  };
}

/** A goal whose benchmark did not run (or not far enough): it says which to run. */
export function missing(measure: string, goal: string, benchmark: string): GoalRow {
  return {
    measure,
    baseline: "-",
    now: "-",
    ratio: "-",
    goal,
    status: "not measured",
    source: `run ${benchmark}`,
  };
}
