import type { RenderedReply, ResolvedReply, StreamEvent } from "../provider-api";
import { splitIntoPieces } from "../text-pieces";
import { wireIds } from "../wire-ids";
import { anthropicStreamErrorData } from "./anthropic-errors";

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/**
 * Renders a reply as the Messages API sends it: a `message` body, or the events `message_start`
 * (usage with the cache fields), per block `content_block_start` (`text` or `tool_use` with
 * `input: {}`), a `ping` after the first block opens, `content_block_delta`s (`text_delta`
 * pieces, or `input_json_delta` whose `partial_json` starts empty and then splits the
 * arguments), `content_block_stop`, then `message_delta` (stop reason, output tokens) and
 * `message_stop` (the two finish events).
 */
export function renderMessage(
  reply: ResolvedReply,
  model: string,
  pieceSize: number,
): RenderedReply {
  const id = wireIds.anthropicMessage();
  const stopReason = reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
  const usage = {
    input_tokens: reply.usage.inputTokens,
    cache_creation_input_tokens: reply.usage.cacheCreationInputTokens,
    cache_read_input_tokens: reply.usage.cachedInputTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: reply.usage.cacheCreationInputTokens,
      ephemeral_1h_input_tokens: 0,
    },
    output_tokens: reply.usage.outputTokens,
    service_tier: "standard",
  };
  const event = (type: string, payload: Record<string, unknown>, finish = false): StreamEvent => ({
    event: type,
    data: JSON.stringify({ type, ...payload }),
    ...(finish ? { finish: true } : {}),
  });
  const ping: StreamEvent = { event: "ping", data: JSON.stringify({ type: "ping" }) };

  const events: StreamEvent[] = [
    event("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  const content: Record<string, unknown>[] = [];
  const open = (block: Record<string, unknown>): number => {
    const index = content.length;
    content.push(block);
    events.push(event("content_block_start", { index, content_block: block }));
    if (index === 0) events.push(ping);
    return index;
  };
  if (reply.text.length > 0) {
    const index = open({ type: "text", text: "" });
    for (const piece of splitIntoPieces(reply.text, pieceSize)) {
      events.push(
        event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }),
      );
    }
    events.push(event("content_block_stop", { index }));
    content[index] = { type: "text", text: reply.text };
  }
  for (const call of reply.toolCalls) {
    const index = open({ type: "tool_use", id: call.id, name: call.name, input: {} });
    for (const piece of ["", ...splitIntoPieces(call.arguments, pieceSize)]) {
      events.push(
        event("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        }),
      );
    }
    events.push(event("content_block_stop", { index }));
    content[index] = {
      type: "tool_use",
      id: call.id,
      name: call.name,
      input: parseInput(call.arguments),
    };
  }
  if (content.length === 0) events.push(ping);
  events.push(
    event(
      "message_delta",
      {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: reply.usage.outputTokens },
      },
      true,
    ),
  );
  events.push(event("message_stop", {}, true));

  const json = {
    id,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  return {
    json,
    events,
    streamError: () => ({ event: "error", data: anthropicStreamErrorData() }),
  };
}
