import { describe, expect, it } from "vitest";
import { AnthropicPromptCache } from "./messages-prompt-cache";

const marker = { cache_control: { type: "ephemeral" } };
const long = "x".repeat(4000);

function request(blocks: Record<string, unknown>[], question: string): Record<string, unknown> {
  return {
    system: blocks,
    messages: [{ role: "user", content: question }],
  };
}

describe("AnthropicPromptCache", () => {
  it("counts no cache without markers", () => {
    const cache = new AnthropicPromptCache(0);
    const first = cache.account(request([{ type: "text", text: long }], "One?"));
    const second = cache.account(request([{ type: "text", text: long }], "One?"));

    expect(second).toEqual(first);
    expect(first).toMatchObject({ cachedTokens: 0, cacheCreationTokens: 0 });
  });

  it("writes the marked prefix once, then reads it, whatever follows the marker", () => {
    const cache = new AnthropicPromptCache(0);
    const first = cache.account(request([{ type: "text", text: long, ...marker }], "One?"));
    const second = cache.account(
      request([{ type: "text", text: long, ...marker }], "Two, longer?"),
    );

    expect(first.cacheCreationTokens).toBeGreaterThan(1000);
    expect(first.cachedTokens).toBe(0);
    expect(second).toMatchObject({
      cachedTokens: first.cacheCreationTokens,
      cacheCreationTokens: 0,
    });
    expect(second.inputTokens).toBeLessThan(20);
  });

  it("reads the longest cached prefix and writes only what the last marker adds", () => {
    const cache = new AnthropicPromptCache(0);
    const base = { type: "text", text: long, ...marker };
    const first = cache.account(request([base], "One?"));
    const second = cache.account(request([base, { type: "text", text: long, ...marker }], "Two?"));

    expect(second.cachedTokens).toBe(first.cacheCreationTokens);
    expect(second.cacheCreationTokens).toBeGreaterThan(900);
  });

  it("does not cache a prefix shorter than the minimum", () => {
    const cache = new AnthropicPromptCache(2048);
    cache.account(request([{ type: "text", text: long, ...marker }], "One?"));
    const second = cache.account(request([{ type: "text", text: long, ...marker }], "One?"));

    expect(second).toMatchObject({ cachedTokens: 0, cacheCreationTokens: 0 });
  });
});
