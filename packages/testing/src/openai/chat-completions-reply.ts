import type { RenderedReply, ResolvedReply, StreamEvent } from "../provider-api";
import { splitIntoPieces } from "../text-pieces";
import { wireIds } from "../wire-ids";
import { openaiStreamErrorObject } from "./openai-errors";

/** Everything about one Chat Completions answer besides the reply itself. */
export interface ChatAnswerContext {
  readonly model: string;
  readonly includeUsage: boolean;
  readonly pieceSize: number;
}

function chatUsage(usage: ResolvedReply["usage"]): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * Renders a reply as the Chat Completions API sends it: a `chat.completion` body, or
 * `chat.completion.chunk` events: the role with the first piece, text in pieces, each tool call
 * opened by a chunk with `index`, `id`, `type`, `function.name` and empty `arguments`, then its
 * arguments in fragments, a chunk with `finish_reason`, a usage chunk (`choices: []`) only when
 * `stream_options.include_usage` is set, and `[DONE]`. The last three are the finish events.
 */
export function renderChatCompletion(
  reply: ResolvedReply,
  context: ChatAnswerContext,
): RenderedReply {
  const id = wireIds.chatCompletion();
  const created = Math.floor(Date.now() / 1000);
  const fingerprint = wireIds.systemFingerprint();
  const finishReason = reply.toolCalls.length > 0 ? "tool_calls" : "stop";
  const envelope = {
    id,
    object: "chat.completion.chunk",
    created,
    model: context.model,
    service_tier: "default",
    system_fingerprint: fingerprint,
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): StreamEvent => ({
    data: JSON.stringify({
      ...envelope,
      choices,
      ...(context.includeUsage ? { usage: null } : {}),
      ...extra,
    }),
  });
  const choice = (delta: Record<string, unknown>): unknown[] => [
    { index: 0, delta, logprobs: null, finish_reason: null },
  ];

  const events: StreamEvent[] = [];
  let roleSent = false;
  if (reply.text.length > 0 || reply.toolCalls.length === 0) {
    events.push(chunk(choice({ role: "assistant", content: "", refusal: null })));
    roleSent = true;
    for (const piece of splitIntoPieces(reply.text, context.pieceSize)) {
      events.push(chunk(choice({ content: piece })));
    }
  }
  for (const [index, call] of reply.toolCalls.entries()) {
    const opening = {
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
      ],
    };
    events.push(
      chunk(
        choice(
          roleSent ? opening : { role: "assistant", content: null, ...opening, refusal: null },
        ),
      ),
    );
    roleSent = true;
    for (const piece of splitIntoPieces(call.arguments, context.pieceSize)) {
      events.push(chunk(choice({ tool_calls: [{ index, function: { arguments: piece } }] })));
    }
  }
  events.push({
    ...chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]),
    finish: true,
  });
  if (context.includeUsage) {
    events.push({ ...chunk([], { usage: chatUsage(reply.usage) }), finish: true });
  }
  events.push({ data: "[DONE]", finish: true });

  const json = {
    id,
    object: "chat.completion",
    created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text.length > 0 ? reply.text : null,
          refusal: null,
          annotations: [],
          ...(reply.toolCalls.length > 0
            ? {
                tool_calls: reply.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: chatUsage(reply.usage),
    service_tier: "default",
    system_fingerprint: fingerprint,
  };
  return {
    json,
    events,
    streamError: () => ({
      data: JSON.stringify({ error: { ...openaiStreamErrorObject(), param: null } }),
    }),
  };
}
