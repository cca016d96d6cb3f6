// The tokens of a turn, summed over its requests, so a failed or stopped turn still reports what
// its requests used. The runner reads each request's `finish` chunk as the provider sent it
// (guarded-model.ts), which also covers a step stopped while its tools ran; an unguarded model
// (AI SDK v2) is read from the SDK's `finish-step` parts instead. Every adapter counts
// `inputTokens` with the cached ones included (Anthropic: input + cache read + cache write), so
// `cachedInputTokens` is a part of `inputTokens`, not an addition.
import type { LanguageModelUsage } from "ai";
import type { LanguageModelV3Usage } from "@ai-sdk/provider";
import type { TurnUsage } from "./turn-events";

/**
 * Adds one request's usage, as its provider's `finish` chunk gave it, to the turn's.
 *
 * @returns the new total, or undefined while nothing has been reported.
 */
export function addRequestUsage(
  total: TurnUsage | undefined,
  usage: LanguageModelV3Usage,
): TurnUsage | undefined {
  return addCounts(total, [
    usage.inputTokens.total,
    usage.outputTokens.total,
    usage.inputTokens.cacheRead,
  ]);
}

/**
 * Adds one step's usage, as the SDK's `finish-step` part gave it, to the turn's.
 *
 * @returns the new total, or undefined while nothing has been reported.
 */
export function addStepUsage(
  total: TurnUsage | undefined,
  usage: LanguageModelUsage,
): TurnUsage | undefined {
  return addCounts(total, [
    usage.inputTokens,
    usage.outputTokens,
    usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens,
  ]);
}

function addCounts(
  total: TurnUsage | undefined,
  [input, output, cached]: [number | undefined, number | undefined, number | undefined],
): TurnUsage | undefined {
  // A count the provider did not report stays absent unless another request reported it.
  const next: TurnUsage = { ...total };
  add(next, "inputTokens", input);
  add(next, "outputTokens", output);
  add(next, "cachedInputTokens", cached);
  return Object.keys(next).length === 0 ? undefined : next;
}

function add(usage: TurnUsage, field: keyof TurnUsage, count: number | undefined): void {
  if (count === undefined || !Number.isFinite(count)) return;
  usage[field] = (usage[field] ?? 0) + count;
}
