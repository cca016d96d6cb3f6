import type { InputAccount } from "../provider-api";
import { estimateTokens } from "../text-pieces";

const minimumCachedTokens = 1024;
const cacheIncrement = 128;
const remembered = 64;

/**
 * OpenAI's automatic prompt caching, estimated: a prompt that repeats at least 1,024 tokens of
 * an earlier prompt's beginning reports them (in steps of 128) as `cached_tokens`.
 */
export class OpenaiPromptCache {
  readonly #prompts: string[] = [];

  /**
   * Counts a prompt and remembers it for the next requests.
   *
   * @param prompt the prompt serialised so that a longer conversation extends a shorter one.
   */
  account(prompt: string): InputAccount {
    let longest = 0;
    for (const earlier of this.#prompts) longest = Math.max(longest, commonPrefix(earlier, prompt));
    this.#prompts.push(prompt);
    if (this.#prompts.length > remembered) this.#prompts.shift();
    const totalTokens = estimateTokens(prompt);
    const prefixTokens = Math.floor(longest / 4);
    const cachedTokens =
      prefixTokens < minimumCachedTokens
        ? 0
        : minimumCachedTokens +
          Math.floor((prefixTokens - minimumCachedTokens) / cacheIncrement) * cacheIncrement;
    return {
      inputTokens: totalTokens,
      cachedTokens: Math.min(cachedTokens, totalTokens),
      cacheCreationTokens: 0,
    };
  }
}

function commonPrefix(first: string, second: string): number {
  const limit = Math.min(first.length, second.length);
  let index = 0;
  while (index < limit && first.charCodeAt(index) === second.charCodeAt(index)) index += 1;
  return index;
}
