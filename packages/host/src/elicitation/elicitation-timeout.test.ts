import { describe, expect, it } from "vitest";
import { elicitationTimeoutMs } from "./elicitation-timeout";

describe("elicitationTimeoutMs", () => {
  it("takes the code's option, else the environment, else five minutes", () => {
    expect(elicitationTimeoutMs(2, "9")).toBe(2_000);
    expect(elicitationTimeoutMs(undefined, "0.5")).toBe(500);
    expect(elicitationTimeoutMs(undefined, "")).toBe(300_000);
    expect(elicitationTimeoutMs(undefined)).toBe(300_000);
  });

  it("refuses a value that is not a number of seconds above 0, in one sentence", () => {
    expect(() => elicitationTimeoutMs(undefined, "soon")).toThrow(
      'elicitationTimeout (or ELICITATION_TIMEOUT) must be a number of seconds above 0, not "soon".',
    );
    expect(() => elicitationTimeoutMs(0)).toThrow(
      'elicitationTimeout (or ELICITATION_TIMEOUT) must be a number of seconds above 0, not "0".',
    );
  });
});
