import { describe, expect, it } from "vitest";
import { formatUsage } from "./format";

describe("formatUsage", () => {
  it("writes what the provider reported, and leaves out what it did not", () => {
    expect(formatUsage({ inputTokens: 1_204, cachedInputTokens: 1_000, outputTokens: 56 })).toBe(
      "1,204 tokens in (1,000 cached) · 56 out",
    );
    expect(formatUsage({ inputTokens: 12, cachedInputTokens: 0, outputTokens: 3 })).toBe(
      "12 tokens in · 3 out",
    );
    expect(formatUsage({ outputTokens: 7 })).toBe("7 tokens out");
    expect(formatUsage({ cachedInputTokens: 5 })).toBe("5 cached tokens in");
    expect(formatUsage({})).toBeNull();
    expect(formatUsage(undefined)).toBeNull();
  });
});
