import { describe, expect, it } from "vitest";
import { OpenaiPromptCache } from "./openai-prompt-cache";

describe("OpenaiPromptCache", () => {
  it("reports a repeated prefix of 1,024 tokens or more, in steps of 128", () => {
    const cache = new OpenaiPromptCache();
    const prefix = "y".repeat(4 * 1300);

    expect(cache.account(`${prefix}first`)).toMatchObject({ cachedTokens: 0 });
    const second = cache.account(`${prefix}second`);
    expect(second.cachedTokens).toBe(1024 + 256);
    expect(second.inputTokens).toBe(Math.ceil((prefix.length + 6) / 4));
  });

  it("reports nothing for a shorter repeated prefix", () => {
    const cache = new OpenaiPromptCache();
    cache.account(`${"y".repeat(4000)}a`);

    expect(cache.account(`${"y".repeat(4000)}b`).cachedTokens).toBe(0);
  });
});
