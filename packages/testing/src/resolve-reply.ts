import type { InputAccount, ResolvedReply } from "./provider-api";
import type { ScriptedReply } from "./scripted-reply";
import { estimateTokens } from "./text-pieces";

/**
 * Decides what a scripted reply leaves open: each call's id and argument text, and the token
 * counts (estimated from characters / 4 unless the reply gives them).
 *
 * @param newToolCallId makes a call id shaped like the API's own.
 * @param account the prompt's token accounting, cache included.
 * @returns the reply ready to render.
 */
export function resolveReply(
  reply: ScriptedReply,
  newToolCallId: () => string,
  account: InputAccount,
): ResolvedReply {
  const text = reply.text ?? "";
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: newToolCallId(),
    name: call.name,
    arguments:
      typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const outputText = text + toolCalls.map((call) => call.name + call.arguments).join("");
  return {
    text,
    toolCalls,
    usage: {
      inputTokens: reply.usage?.inputTokens ?? account.inputTokens,
      outputTokens: reply.usage?.outputTokens ?? Math.max(1, estimateTokens(outputText)),
      cachedInputTokens: reply.usage?.cachedInputTokens ?? account.cachedTokens,
      cacheCreationInputTokens:
        reply.usage?.cacheCreationInputTokens ?? account.cacheCreationTokens,
    },
  };
}
