// `ui/resource-teardown` must be sent before a view is removed, and the host should wait for the
// answer; but a view without an `onteardown` handler answers with an error, and a stuck view
// never answers. Any answer, any error and a timeout all count as "done".

/** How long the host waits for a view to answer `ui/resource-teardown`, in ms. */
export const teardownTimeoutMs = 3_000;

/** How the wait for a teardown ended. */
export type TeardownOutcome = "answered" | "failed" | "timed-out";

/** The timer functions the wait uses (injectable for tests). */
export interface TimerFunctions {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The page's own timers. */
export const globalTimers: TimerFunctions = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Runs a teardown request and waits for it at most `timeoutMs`.
 *
 * @param teardown - sends the request (e.g. `() => bridge.teardownResource({})`).
 * @param timeoutMs - how long to wait; default {@link teardownTimeoutMs}.
 * @param timers - timer functions; default the page's.
 * @returns `"answered"` when the view replied, `"failed"` when the request failed (an error
 *   reply, a closed channel, or `teardown` throwing), `"timed-out"` when nothing came in time.
 *   Never rejects.
 */
export function teardownWithTimeout(
  teardown: () => Promise<unknown>,
  timeoutMs: number = teardownTimeoutMs,
  timers: TimerFunctions = globalTimers,
): Promise<TeardownOutcome> {
  return new Promise<TeardownOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: TeardownOutcome) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(handle);
      resolve(outcome);
    };
    const handle = timers.setTimeout(() => finish("timed-out"), timeoutMs);
    let request: Promise<unknown>;
    try {
      request = teardown();
    } catch {
      finish("failed");
      return;
    }
    Promise.resolve(request).then(
      () => finish("answered"),
      () => finish("failed"),
    );
  });
}
