// What a benchmark reads about the running program from outside, as an operator would: its
// resident memory from /proc, and its heap and event loop delay from its /metrics page (prom-client's
// default Node metrics, which the host serves under its `mcp_chat_host_` prefix), when it serves
// them. Nothing here runs inside the program.
import { errorMessage } from "@mcp-chat-host/protocol";
import { parseMetrics } from "./metrics";
import type { RunningProgram } from "./program";
import { residentBytes } from "./process-stats";

/** The first sample of the first of `names` that the page has, or undefined. */
function firstValue(page: string, names: readonly string[]): number | undefined {
  const samples = parseMetrics(page);
  for (const name of names) {
    const sample = samples.find((candidate) => candidate.name === name);
    if (sample !== undefined) return sample.value;
  }
  return undefined;
}

/**
 * The program's memory: RSS from /proc (a program cannot be asked for a full GC, so it is RSS as
 * it is), and its used heap from /metrics (`nodejs_heap_size_used_bytes`, prefixed or not).
 *
 * @returns bytes; `heapUsed` is null when the program serves no such metric.
 */
export async function programMemory(
  program: RunningProgram,
): Promise<{ rss: number; heapUsed: number | null }> {
  const rss = residentBytes(program.pid);
  const heapUsed = await program.metrics().then(
    (page) =>
      firstValue(page, [
        "mcp_chat_host_nodejs_heap_size_used_bytes",
        "nodejs_heap_size_used_bytes",
      ]) ?? null,
    () => null,
  );
  return { rss, heapUsed };
}

/**
 * How late the program's event loop ran since the last reading, in ms: prom-client's
 * `nodejs_eventloop_lag_p99_seconds` and `_max_seconds` (its histogram starts over at each
 * scrape), under the host's `mcp_chat_host_` prefix or without one.
 *
 * @returns the delays (NaN when the page has no such metric), or null when the program did not
 *   answer within 30 s (it is too far behind: its backlog of calls comes first) or serves no
 *   /metrics; the next reading then covers both periods.
 */
export async function loopDelayOf(
  program: RunningProgram,
): Promise<{ p99: number; max: number } | null> {
  let page: string;
  try {
    page = await program.metrics();
  } catch (error) {
    if (/HTTP 404/.test(errorMessage(error))) return { p99: Number.NaN, max: Number.NaN };
    return null;
  }
  const seconds = (suffix: string) =>
    firstValue(page, [
      `mcp_chat_host_nodejs_eventloop_lag_${suffix}_seconds`,
      `nodejs_eventloop_lag_${suffix}_seconds`,
    ]);
  return {
    p99: (seconds("p99") ?? Number.NaN) * 1_000,
    max: (seconds("max") ?? Number.NaN) * 1_000,
  };
}
