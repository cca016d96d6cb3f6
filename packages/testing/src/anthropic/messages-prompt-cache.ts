import { createHash } from "node:crypto";
import type { InputAccount } from "../provider-api";
import { asArray, asRecord } from "../request-view";
import { estimateTokens } from "../text-pieces";
import { contentBlocks, systemBlocks } from "./messages-request";

interface PromptEntry {
  readonly text: string;
  readonly marked: boolean;
}

function entry(block: unknown, context: string): PromptEntry {
  const record = asRecord(block);
  // The marker is not part of the cached content: moving it must not change the prefix before it.
  const { cache_control: marker, ...content } = record ?? { value: block };
  return { text: `${context}${JSON.stringify(content)}\n`, marked: marker !== undefined };
}

function promptEntries(body: Record<string, unknown>): PromptEntry[] {
  const entries: PromptEntry[] = [];
  for (const tool of asArray(body.tools)) entries.push(entry(tool, "tool:"));
  for (const block of systemBlocks(body.system)) entries.push(entry(block, "system:"));
  for (const [index, message] of asArray(body.messages).entries()) {
    const role = String(asRecord(message)?.role);
    for (const block of contentBlocks(asRecord(message)?.content)) {
      entries.push(entry(block, `${index}:${role}:`));
    }
  }
  return entries;
}

/** How many block boundaries before a marker the real API checks for a cached prefix. */
const LOOKBACK_BLOCKS = 20;

/**
 * Anthropic prompt caching, estimated: the prompt (tools, then system, then messages) up to a
 * block marked `cache_control` is a cacheable prefix. The first request with a prefix reports it
 * as `cache_creation_input_tokens`; a later request reports as `cache_read_input_tokens` the
 * longest prefix an earlier request cached that ends at one of its markers or, as the real API
 * does, at one of the 20 block boundaries before a marker (so a conversation that moves its
 * history marker forward each turn reads the previous turn's history from the cache). Only what
 * lies past the prefixes counts as `input_tokens`. No entry expires while the stand-in runs.
 */
export class AnthropicPromptCache {
  readonly #prefixes = new Set<string>();
  readonly #minimumTokens: number;

  /**
   * @param minimumTokens the shortest prefix that is cached (the real API's minimum is 1,024 to
   * 4,096 tokens depending on the model; shorter prefixes are silently not cached).
   */
  constructor(minimumTokens: number) {
    this.#minimumTokens = minimumTokens;
  }

  /** Counts a request's prompt and caches its marked prefixes. */
  account(body: Record<string, unknown>): InputAccount {
    const entries = promptEntries(body);
    // The prompt up to and including each block, and its hash.
    const boundaries: { key: string; tokens: number }[] = [];
    let prefix = "";
    for (const { text } of entries) {
      prefix += text;
      boundaries.push({
        key: createHash("sha256").update(prefix).digest("hex"),
        tokens: estimateTokens(prefix),
      });
    }
    let readTokens = 0;
    let lastPrefixTokens = 0;
    let lastPrefixCached = false;
    const toCache: string[] = [];
    entries.forEach(({ marked }, index) => {
      const boundary = boundaries[index];
      if (!marked || boundary === undefined || boundary.tokens < this.#minimumTokens) return;
      for (let back = index; back >= Math.max(0, index - LOOKBACK_BLOCKS); back -= 1) {
        const earlier = boundaries[back];
        if (earlier !== undefined && this.#prefixes.has(earlier.key)) {
          readTokens = Math.max(readTokens, earlier.tokens);
          break;
        }
      }
      lastPrefixTokens = boundary.tokens;
      lastPrefixCached = this.#prefixes.has(boundary.key);
      toCache.push(boundary.key);
    });
    for (const key of toCache) this.#prefixes.add(key);
    const creationTokens = lastPrefixCached ? 0 : Math.max(0, lastPrefixTokens - readTokens);
    return {
      inputTokens: Math.max(0, estimateTokens(prefix) - readTokens - creationTokens),
      cachedTokens: readTokens,
      cacheCreationTokens: creationTokens,
    };
  }
}
