// Time as the model runner sees it: the current time, a wait that a stop cuts short, and a timer
// for the stall watch. Tests pass their own clock, so retries and stalls run without real waits.

/** The time functions a turn uses; {@link systemClock} is the real one. */
export interface TurnClock {
  /** The current time in ms since the epoch. */
  now(): number;
  /**
   * Waits `ms` milliseconds.
   *
   * @throws the signal's reason when it aborts first (also when it is already aborted).
   */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Calls `callback` once after `ms` milliseconds, unless cancelled first.
   *
   * @returns the function that cancels the timer.
   */
  startTimer(ms: number, callback: () => void): () => void;
}

/** The real clock: `Date.now`, `setTimeout`. */
export const systemClock: TurnClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    }),
  startTimer: (ms, callback) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};
