// Open-loop load: callers that each fire once a second whatever the answers, as many people's
// pages would. A slow server then shows up as latency and timeouts, not as a lower call rate.
import { performance } from "node:perf_hooks";

/**
 * Calls `call(index)` for each of `count` callers once a second, spread evenly over the second,
 * for `sliceMs` (open loop: a slow answer does not delay the next call), then waits for every
 * answer (each is bounded by its own timeout).
 */
export async function runSlice(
  count: number,
  sliceMs: number,
  call: (index: number) => Promise<void>,
): Promise<void> {
  const pending: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let scheduled = 0;
    let fired = 0;
    for (let index = 0; index < count; index += 1) {
      for (let at = (index * 1_000) / count; at < sliceMs; at += 1_000) {
        scheduled += 1;
        const wait = Math.max(0, at - (performance.now() - started));
        timers.push(
          setTimeout(() => {
            pending.push(call(index));
            fired += 1;
            if (fired === scheduled) resolve();
          }, wait),
        );
      }
    }
    if (scheduled === 0) resolve();
  });
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(pending);
}
