// Tool calls the AI SDK could not run: a name the chat has no tool for (NoSuchToolError), or
// arguments that are not JSON (InvalidToolInputError). The SDK reports them as a `tool-call`
// part with `invalid: true` and answers the model with its own error text; the runner refuses
// them like any other call, so the person sees a tool row with the reason and the model reads
// "Tool call rejected. <reason>".
import { NoSuchToolError } from "ai";
import type { ModelMessage, StepResult, ToolSet } from "ai";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { ToolCheckName } from "./tool-checks";
import { modelOutputFor, refusalOutcome } from "./tool-outcome";

/** The reason given to the model when its arguments were not JSON. */
export const ARGUMENTS_NOT_JSON_REASON =
  "The arguments were not valid JSON; send them again as one JSON object.";

/** The longest tool name quoted back in a reason (a model may invent anything). */
const NAME_LIMIT = 64;

/**
 * The reason given to the model when it called a tool the chat does not have.
 *
 * @returns a sentence naming the tool and telling the model what to do.
 */
export function unknownToolReason(name: string): string {
  const shown = name.length > NAME_LIMIT ? `${name.slice(0, NAME_LIMIT)}…` : name;
  return `This chat has no tool named "${shown}"; call one of the tools you were given.`;
}

/**
 * Which check refuses an invalid call, and the reason the model is told.
 *
 * @returns "unknown-tool" for a name the chat lacks, otherwise "arguments".
 */
function refusalOfInvalidCall(
  call: { toolName: string; error?: unknown },
  toolNames: ReadonlySet<string>,
): { check: ToolCheckName; reason: string } {
  if (NoSuchToolError.isInstance(call.error) || !toolNames.has(call.toolName)) {
    return { check: "unknown-tool", reason: unknownToolReason(call.toolName) };
  }
  return { check: "arguments", reason: ARGUMENTS_NOT_JSON_REASON };
}

/**
 * Replaces the results of refused invalid calls in a conversation with the runner's refusals,
 * and their unreadable arguments with `{}` (a provider refuses a call whose input is not an
 * object). Messages without such calls are returned as they are.
 *
 * @returns the messages, changed only where a refused call appears.
 */
function withRefusedOutputs(
  messages: ModelMessage[],
  refusals: ReadonlyMap<string, ToolResultOutput>,
): ModelMessage[] {
  if (refusals.size === 0) return messages;
  return messages.map((message) => {
    if (message.role === "tool") {
      return {
        ...message,
        content: message.content.map((part) => {
          if (part.type !== "tool-result") return part;
          const output = refusals.get(part.toolCallId);
          return output === undefined ? part : { ...part, output };
        }),
      };
    }
    if (message.role === "assistant" && typeof message.content !== "string") {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool-call" && refusals.has(part.toolCallId) && !isObject(part.input)
            ? { ...part, input: {} }
            : part,
        ),
      };
    }
    return message;
  });
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The invalid calls of one turn and the runner's answers to them, by tool call id. */
export class RefusedCalls {
  private readonly outputs = new Map<string, ToolResultOutput>();

  /** @param toolNames - the names of the tools the model was given. */
  constructor(private readonly toolNames: ReadonlySet<string>) {}

  /**
   * Notes an invalid call (a `tool-call` part with `invalid: true`). Noting a call twice gives
   * the same answer.
   *
   * @returns the check that refuses it, the reason, and what the model is told.
   */
  note(call: { toolCallId: string; toolName: string; error?: unknown }): {
    check: ToolCheckName;
    reason: string;
    output: ToolResultOutput;
  } {
    const refusal = refusalOfInvalidCall(call, this.toolNames);
    const output = modelOutputFor(refusalOutcome(refusal.reason));
    this.outputs.set(call.toolCallId, output);
    return { ...refusal, output };
  }

  /** Notes the invalid calls of finished steps (before the SDK builds the next request). */
  noteSteps(steps: ReadonlyArray<StepResult<ToolSet>>): void {
    for (const step of steps) {
      for (const part of step.content) {
        if (part.type === "tool-call" && part.invalid === true) this.note(part);
      }
    }
  }

  /** @returns whether the call was refused as invalid. */
  has(toolCallId: string): boolean {
    return this.outputs.has(toolCallId);
  }

  /**
   * The messages with the runner's answers in place of the SDK's (see {@link withRefusedOutputs}).
   *
   * @returns the messages, the same array when no call was refused.
   */
  applyTo(messages: ModelMessage[]): ModelMessage[] {
    return withRefusedOutputs(messages, this.outputs);
  }
}
