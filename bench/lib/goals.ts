// The host's speed goals ("fast where a person feels it", docs/performance.md), read from a run's
// results: for each, the baselines measured in the same run with their spreads, the host's figure,
// their ratio, the goal and whether the figure meets it (never on a noisy baseline). The runner
// prints them after the tables; a missed goal never fails a run (machines are noisy), not even a
// quick one; a missing figure says which benchmark to run.
import type { BenchResult, GoalRow } from "./bench-result";
import { manySessionsGoal, remoteSignInGoals, startGoals } from "./goals-capacity";
import { firstCardGoal, liveViewsGoal, pageCallGoals, reopenGoal } from "./goals-latency";
import { NOISY_SPREAD } from "./goal-figures";

/**
 * The goals table, from a run's results (any subset: a goal whose benchmark did not
 * run is "not measured" and names it).
 */
export function evaluateGoals(results: readonly BenchResult[]): GoalRow[] {
  return [
    reopenGoal(results),
    liveViewsGoal(results),
    ...pageCallGoals(results),
    firstCardGoal(results),
    ...startGoals(results),
    manySessionsGoal(results),
    ...remoteSignInGoals(results),
  ];
}

/**
 * The goals as plain text: a block per goal with its baseline, figure, ratio, goal, status and,
 * for a noisy baseline, why.
 *
 * @param quick - the run used tiny sizes: the figures only show the harness works.
 * @returns the text, ending in a newline.
 */
export function formatGoals(goals: readonly GoalRow[], quick: boolean): string {
  const lines = [
    quick
      ? "Goals (quick sizes: these figures only show the harness runs, not the goals' sizes):"
      : "Goals:",
    `  (figures are p50, with p25/p75/p99; a baseline whose p75/p25 is over ${NOISY_SPREAD}× is noisy, and a goal is never met on it)`,
  ];
  for (const goal of goals) {
    lines.push(
      `  [${goal.status}] ${goal.measure}`,
      `      baseline: ${goal.baseline}`,
      `      host: ${goal.now}`,
      `      ratio: ${goal.ratio}   goal: ${goal.goal}   (${goal.source})`,
    );
    if (goal.note !== undefined) lines.push(`      ${goal.note}`);
  }
  return `${lines.join("\n")}\n`;
}
