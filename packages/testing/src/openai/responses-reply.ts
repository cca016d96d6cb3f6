import type { RenderedReply, ResolvedReply, StreamEvent } from "../provider-api";
import { splitIntoPieces } from "../text-pieces";
import { wireIds } from "../wire-ids";
import { openaiStreamErrorObject } from "./openai-errors";

function responsesUsage(usage: ResolvedReply["usage"]): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

type OutputItem = Record<string, unknown> & { id: string };

/**
 * Renders a reply as the Responses API sends it: a `response` object, or the events
 * `response.created`, `response.in_progress`, per output item `response.output_item.added`, for a
 * message `response.content_part.added`, `response.output_text.delta` (pieces),
 * `response.output_text.done`, `response.content_part.done`, for a function call
 * `response.function_call_arguments.delta` (fragments) and `.done`, then
 * `response.output_item.done`, and last `response.completed` with usage (the finish event).
 * Every event carries its `sequence_number`.
 */
export function renderResponse(
  reply: ResolvedReply,
  body: Record<string, unknown>,
  model: string,
  pieceSize: number,
): RenderedReply {
  const id = wireIds.response();
  const createdAt = Math.floor(Date.now() / 1000);
  const responseObject = (
    status: string,
    output: unknown[],
    usage: unknown,
    error: unknown = null,
  ): Record<string, unknown> => ({
    id,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    error,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: body.top_p ?? 1,
    truncation: "disabled",
    usage,
    user: null,
    metadata: {},
  });

  const payloads: { type: string; [key: string]: unknown }[] = [];
  const finished: OutputItem[] = [];
  payloads.push({ type: "response.created", response: responseObject("in_progress", [], null) });
  payloads.push({
    type: "response.in_progress",
    response: responseObject("in_progress", [], null),
  });

  if (reply.text.length > 0 || reply.toolCalls.length === 0) {
    const itemId = wireIds.responseMessage();
    const outputIndex = finished.length;
    const part = { type: "output_text", annotations: [], logprobs: [], text: reply.text };
    const where = { item_id: itemId, output_index: outputIndex, content_index: 0 };
    payloads.push({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { id: itemId, type: "message", status: "in_progress", content: [], role: "assistant" },
    });
    payloads.push({ type: "response.content_part.added", ...where, part: { ...part, text: "" } });
    for (const piece of splitIntoPieces(reply.text, pieceSize)) {
      payloads.push({ type: "response.output_text.delta", ...where, delta: piece, logprobs: [] });
    }
    payloads.push({ type: "response.output_text.done", ...where, text: reply.text, logprobs: [] });
    payloads.push({ type: "response.content_part.done", ...where, part });
    const item = {
      id: itemId,
      type: "message",
      status: "completed",
      content: [part],
      role: "assistant",
    };
    payloads.push({ type: "response.output_item.done", output_index: outputIndex, item });
    finished.push(item);
  }
  for (const call of reply.toolCalls) {
    const itemId = wireIds.responseFunctionCall();
    const outputIndex = finished.length;
    const item = {
      id: itemId,
      type: "function_call",
      status: "in_progress",
      arguments: "",
      call_id: call.id,
      name: call.name,
    };
    payloads.push({ type: "response.output_item.added", output_index: outputIndex, item });
    for (const piece of splitIntoPieces(call.arguments, pieceSize)) {
      payloads.push({
        type: "response.function_call_arguments.delta",
        item_id: itemId,
        output_index: outputIndex,
        delta: piece,
      });
    }
    payloads.push({
      type: "response.function_call_arguments.done",
      item_id: itemId,
      output_index: outputIndex,
      arguments: call.arguments,
    });
    const done = { ...item, status: "completed", arguments: call.arguments };
    payloads.push({ type: "response.output_item.done", output_index: outputIndex, item: done });
    finished.push(done);
  }
  const completed = responseObject("completed", finished, responsesUsage(reply.usage));
  payloads.push({ type: "response.completed", response: completed });

  const events: StreamEvent[] = payloads.map(({ type, ...rest }, sequenceNumber) => ({
    event: type,
    data: JSON.stringify({ type, sequence_number: sequenceNumber, ...rest }),
    ...(type === "response.completed" ? { finish: true } : {}),
  }));
  const streamError = (
    variant: "error" | "response.failed",
    sequenceNumber: number,
  ): StreamEvent => {
    const error = openaiStreamErrorObject();
    if (variant === "error") {
      return {
        event: "error",
        data: JSON.stringify({
          type: "error",
          sequence_number: sequenceNumber,
          code: error.code,
          message: error.message,
          param: null,
        }),
      };
    }
    const failed = responseObject("failed", [], null, {
      code: "server_error",
      message: "The model failed to generate a response.",
    });
    return {
      event: "response.failed",
      data: JSON.stringify({
        type: "response.failed",
        sequence_number: sequenceNumber,
        response: failed,
      }),
    };
  };
  return { json: completed, events, streamError };
}
