// What the runner keeps of the SDK's stream parts: the text and tool calls of each step (for a
// step cut short, see step-record.ts) and the events the browser is sent as they arrive.
import { errorMessage } from "@mcp-chat-host/protocol";
import type { TextStreamPart, ToolSet } from "ai";
import type { StepRecord } from "./step-record";
import { modelOutputFor } from "./tool-outcome";
import type { ModelToolOutcome } from "./tool-outcome";
import type { TurnState } from "./turn-state";

/**
 * Records one stream part in the current step (its text, tool calls and their results) and sends
 * the events that go out as parts arrive: text deltas and the arguments of calls as they stream.
 * Other parts are ignored.
 */
export function recordPart(
  step: StepRecord | undefined,
  part: TextStreamPart<ToolSet>,
  turn: TurnState,
): void {
  if (part.type === "text-delta") {
    if (step !== undefined) step.text += part.text;
    turn.emit({ type: "text-delta", delta: part.text });
    return;
  }
  if (part.type === "tool-input-start") {
    turn.inputs.set(part.id, { name: part.toolName, text: "" });
    turn.emit({ type: "tool-input-start", toolCallId: part.id, name: part.toolName });
    return;
  }
  if (part.type === "tool-input-delta") {
    const input = turn.inputs.get(part.id);
    if (input === undefined) return;
    input.text += part.delta;
    turn.emit({
      type: "tool-input-delta",
      toolCallId: part.id,
      name: input.name,
      partialJson: input.text,
    });
    return;
  }
  if (part.type === "tool-input-end") {
    turn.inputs.delete(part.id);
    return;
  }
  if (step === undefined) return;
  if (part.type === "tool-call") {
    turn.inputs.delete(part.toolCallId);
    step.calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
  } else if (part.type === "tool-result" && part.preliminary !== true) {
    step.outputs.set(part.toolCallId, modelOutputFor(part.output as ModelToolOutcome));
  } else if (part.type === "tool-error") {
    step.outputs.set(part.toolCallId, { type: "error-text", value: errorMessage(part.error) });
  }
}

/**
 * The text of a turn: the texts of its steps, joined with a blank line.
 *
 * @returns the text ("" when no step said anything).
 */
export function joinStepTexts(steps: readonly StepRecord[]): string {
  return steps
    .map((step) => step.text)
    .filter((text) => text !== "")
    .join("\n\n");
}
