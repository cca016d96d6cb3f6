import { describe, expect, it } from "vitest";
import { runSlice } from "./open-loop";

describe("runSlice", () => {
  it("fires each caller once a second, spread over the second, without waiting for answers", async () => {
    const fired: number[] = [];
    const unanswered: (() => void)[] = [];
    const release = () => {
      for (const answer of unanswered) answer();
    };
    // Two callers over 1.5 s: caller 0 at 0 ms and 1,000 ms, caller 1 at 500 ms. No call is
    // answered until the last has fired, so a closed loop would stop after the first.
    await runSlice(2, 1_500, (index) => {
      fired.push(index);
      const answered = new Promise<void>((resolve) => unanswered.push(resolve));
      if (fired.length === 3) release();
      return answered;
    });
    expect(fired).toEqual([0, 1, 0]);
  });

  it("does nothing for no callers", async () => {
    let calls = 0;
    await runSlice(0, 1_000, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });
});
