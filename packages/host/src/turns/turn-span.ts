import type { SpanAttributes } from "../telemetry/spans";
import type { TurnResult } from "../model/turn-events";

/**
 * What a turn's span says of how it ended: its outcome, the failure's kind, and the tokens the
 * provider reported (the GenAI conventions' `gen_ai.usage.*`). Never the text or the failure's
 * message.
 */
export function turnSpanAttributes(result: TurnResult): SpanAttributes {
  const attributes: SpanAttributes = { "mcp_chat_host.turn.outcome": result.status };
  if (result.failure !== undefined) {
    attributes["mcp_chat_host.turn.failure_kind"] = result.failure.kind;
  }
  const usage = result.usage;
  if (usage?.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = usage.inputTokens;
  if (usage?.outputTokens !== undefined) {
    attributes["gen_ai.usage.output_tokens"] = usage.outputTokens;
  }
  if (result.finishReason !== undefined) {
    attributes["gen_ai.response.finish_reasons"] = [result.finishReason];
  }
  return attributes;
}
