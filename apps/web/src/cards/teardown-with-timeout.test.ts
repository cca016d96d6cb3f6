// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { teardownWithTimeout, type TimerFunctions } from "./teardown-with-timeout";

/** Timers driven by the test: `fire()` runs what is due, with no real waiting. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; delayMs: number }>();
  let next = 1;
  const timers: TimerFunctions = {
    setTimeout(callback, delayMs) {
      const handle = next++;
      pending.set(handle, { callback, delayMs });
      return handle;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending,
    fire() {
      for (const [handle, timer] of [...pending]) {
        pending.delete(handle);
        timer.callback();
      }
    },
  };
}

describe("teardownWithTimeout", () => {
  it("resolves answered when the view replies, and clears its timer", async () => {
    const clock = manualTimers();
    const outcome = await teardownWithTimeout(() => Promise.resolve({}), 3_000, clock.timers);
    expect(outcome).toBe("answered");
    expect(clock.pending.size).toBe(0);
  });

  it("resolves failed when the view answers with an error (no onteardown handler)", async () => {
    const clock = manualTimers();
    const outcome = await teardownWithTimeout(
      () => Promise.reject(new Error("Method not found")),
      3_000,
      clock.timers,
    );
    expect(outcome).toBe("failed");
    expect(clock.pending.size).toBe(0);
  });

  it("resolves failed when sending throws at once", async () => {
    const clock = manualTimers();
    const outcome = await teardownWithTimeout(
      () => {
        throw new Error("Not connected");
      },
      3_000,
      clock.timers,
    );
    expect(outcome).toBe("failed");
  });

  it("resolves timed-out after the timeout when the view never answers", async () => {
    const clock = manualTimers();
    const result = teardownWithTimeout(
      () => new Promise<never>(() => undefined),
      3_000,
      clock.timers,
    );
    expect([...clock.pending.values()].map((timer) => timer.delayMs)).toEqual([3_000]);
    clock.fire();
    expect(await result).toBe("timed-out");
  });

  it("keeps the first outcome when the answer comes after the timeout", async () => {
    const clock = manualTimers();
    let answer: (value: unknown) => void = () => undefined;
    const result = teardownWithTimeout(
      () => new Promise((resolve) => (answer = resolve)),
      3_000,
      clock.timers,
    );
    clock.fire();
    answer({});
    expect(await result).toBe("timed-out");
  });
});
