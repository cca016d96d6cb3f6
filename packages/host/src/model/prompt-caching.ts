// Anthropic prompt caching: `cache_control` breakpoints on the parts of a request that the next
// request repeats unchanged. Anthropic caches the prefix in the order tools, system, messages,
// so the runner marks the last tool definition, the system prompt, and the last message of the
// stored history (three of the four breakpoints a request may carry). Other providers cache
// without markers and are left alone.
import type { ModelMessage, SystemModelMessage } from "ai";
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";

/** The provider options of one `cache_control: { type: "ephemeral" }` breakpoint. */
const CACHE_BREAKPOINT: SharedV3ProviderOptions = {
  anthropic: { cacheControl: { type: "ephemeral" } },
};

/**
 * Whether a model takes Anthropic's cache markers.
 *
 * @returns true for the Anthropic provider (`anthropic.messages`).
 */
export function usesCacheMarkers(model: { provider: string }): boolean {
  return model.provider.startsWith("anthropic");
}

/**
 * Adds the cache breakpoint to a part's provider options, keeping the options it has.
 *
 * @returns the merged options.
 */
export function withBreakpoint(
  providerOptions: SharedV3ProviderOptions | undefined,
): SharedV3ProviderOptions {
  return {
    ...providerOptions,
    anthropic: { ...providerOptions?.["anthropic"], ...CACHE_BREAKPOINT["anthropic"] },
  };
}

/**
 * Marks the system prompt and the last message of the stable prefix (the stored history the
 * next turn resends unchanged) as cache breakpoints.
 *
 * @param stablePrefixLength - how many leading messages are stored history; 0 or undefined
 *   marks no message.
 * @returns the system prompt and messages to send; the inputs are not changed.
 */
export function withCacheMarkers(prompt: {
  system: string | undefined;
  messages: ModelMessage[];
  stablePrefixLength: number | undefined;
}): { system: SystemModelMessage | undefined; messages: ModelMessage[] } {
  const system: SystemModelMessage | undefined =
    prompt.system === undefined || prompt.system === ""
      ? undefined
      : { role: "system", content: prompt.system, providerOptions: CACHE_BREAKPOINT };
  const last = Math.min(prompt.stablePrefixLength ?? 0, prompt.messages.length) - 1;
  if (last < 0) return { system, messages: prompt.messages };
  const messages = prompt.messages.map((message, index) =>
    index === last
      ? ({ ...message, providerOptions: withBreakpoint(message.providerOptions) } as ModelMessage)
      : message,
  );
  return { system, messages };
}
