// What the runner saw of one model step while it streamed. The AI SDK builds the messages of a
// finished step itself; these records cover a step cut short by a stop or an error, so the stored
// history still pairs every tool call with a result (providers refuse a call without one).
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from "ai";

/** The text of a tool call's result when the person stopped the turn before the call finished. */
export const TOOL_CANCELLED_TEXT = "Tool call cancelled: the person stopped the reply.";

/** The streamed content of one step: its text, the tool calls it made, the results it got. */
export interface StepRecord {
  text: string;
  calls: Map<string, { toolName: string; input: unknown }>;
  outputs: Map<string, ToolResultOutput>;
}

/**
 * Starts the record of a step.
 *
 * @returns an empty record.
 */
export function newStepRecord(): StepRecord {
  return { text: "", calls: new Map(), outputs: new Map() };
}

/**
 * Builds the messages of a step that did not finish: an assistant message with its text and tool
 * calls, then a tool message with a result for every call, {@link TOOL_CANCELLED_TEXT} for the
 * calls that had none yet.
 *
 * @returns zero, one or two messages.
 */
export function messagesOfUnfinishedStep(step: StepRecord): ModelMessage[] {
  const assistant: AssistantModelMessage = { role: "assistant", content: [] };
  const content: Exclude<AssistantModelMessage["content"], string> = [];
  if (step.text !== "") content.push({ type: "text", text: step.text });
  for (const [toolCallId, call] of step.calls) {
    content.push({ type: "tool-call", toolCallId, toolName: call.toolName, input: call.input });
  }
  if (content.length === 0) return [];
  assistant.content = content;
  if (step.calls.size === 0) return [assistant];
  const results: ToolModelMessage = {
    role: "tool",
    content: [...step.calls].map(([toolCallId, call]) => ({
      type: "tool-result" as const,
      toolCallId,
      toolName: call.toolName,
      output: step.outputs.get(toolCallId) ?? { type: "error-text", value: TOOL_CANCELLED_TEXT },
    })),
  };
  return [assistant, results];
}
