// A clock for tests of retries and stalls: waits are recorded and end when the test says so (or at
// once), timers fire only when the test fires them. Used only by tests.
import type { TurnClock } from "../model/turn-clock";

/** A wait the code under test asked for. */
export interface TestSleep {
  ms: number;
  /** Ends the wait. */
  release: () => void;
}

/** A timer the code under test started and has not cancelled. */
export interface TestTimer {
  ms: number;
  fire: () => void;
}

/** The clock and what it was asked. */
export interface TestClock {
  clock: TurnClock;
  /** Every wait asked for, in order. */
  sleeps: TestSleep[];
  /** The timers running now (started and neither fired nor cancelled). */
  timers: TestTimer[];
  /** Resolves with the next wait asked for (at once if one is pending and unreleased). */
  nextSleep: () => Promise<TestSleep>;
  /** Resolves with a running timer (at once if one is running). */
  nextTimer: () => Promise<TestTimer>;
}

/**
 * Creates a test clock whose time stands at `now`.
 *
 * @param options.holdSleeps - when true, waits last until released; otherwise they end at once.
 * @returns the clock.
 */
export function createTestClock(options: { now?: number; holdSleeps?: boolean } = {}): TestClock {
  const now = options.now ?? Date.parse("2025-01-02T03:04:05.000Z");
  const sleeps: TestSleep[] = [];
  const timers: TestTimer[] = [];
  const sleepWaiters: Array<(sleep: TestSleep) => void> = [];
  const timerWaiters: Array<(timer: TestTimer) => void> = [];
  const pending = new Set<TestSleep>();
  const clock: TurnClock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        const sleep: TestSleep = {
          ms,
          release: () => {
            pending.delete(sleep);
            resolve();
          },
        };
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        sleeps.push(sleep);
        pending.add(sleep);
        sleepWaiters.splice(0).forEach((waiter) => waiter(sleep));
        if (options.holdSleeps !== true) sleep.release();
      }),
    startTimer: (ms, callback) => {
      const timer: TestTimer = {
        ms,
        fire: () => {
          remove();
          callback();
        },
      };
      const remove = (): void => {
        const index = timers.indexOf(timer);
        if (index !== -1) timers.splice(index, 1);
      };
      timers.push(timer);
      timerWaiters.splice(0).forEach((waiter) => waiter(timer));
      return remove;
    },
  };
  return {
    clock,
    sleeps,
    timers,
    nextSleep: () => {
      const open = [...pending].at(-1);
      if (open !== undefined) return Promise.resolve(open);
      return new Promise((resolve) => sleepWaiters.push(resolve));
    },
    nextTimer: () => {
      const running = timers.at(-1);
      if (running !== undefined) return Promise.resolve(running);
      return new Promise((resolve) => timerWaiters.push(resolve));
    },
  };
}
