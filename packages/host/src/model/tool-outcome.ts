import type { JSONValue } from "@ai-sdk/provider";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { modelValue } from "../sources/tool-metadata";

/**
 * What one tool call gave back, in the two forms the host needs: the value the model sees and
 * the MCP result it came from (which a card's page receives untouched).
 */
export interface ModelToolOutcome {
  /** What the model sees: a text, or a JSON value (a tool's structured content). */
  value: JSONValue;
  /** True when the call failed; the model is told it failed and `value` is the reason. */
  isError: boolean;
  /** The MCP result of the call; absent when the call never produced one (refused, thrown). */
  raw?: CallToolResult;
}

/** The prefix of every refusal the model sees, before the refusal's reason. */
const TOOL_REJECTED_PREFIX = "Tool call rejected.";

/**
 * Turns an MCP tool result into what the model sees, by the default rule (see
 * `modelValue`): an error gives its text, or "The tool failed."; otherwise the structured content,
 * or the text when the structured content is empty or just `{ value: scalar }`.
 *
 * @returns the outcome, with `raw` set to the result itself.
 */
export function toolOutcomeFromResult(result: CallToolResult): ModelToolOutcome {
  const value = modelValue(result);
  // structuredContent arrived as JSON, so it is a JSON value.
  return value.isError
    ? { value: value.text, isError: true, raw: result }
    : { value: value.value as JSONValue, isError: false, raw: result };
}

/**
 * The outcome of a call the host refused before it ran: the model reads
 * "Tool call rejected. <reason>" as the call's error.
 *
 * @returns an error outcome without `raw`.
 */
export function refusalOutcome(reason: string): ModelToolOutcome {
  return { value: `${TOOL_REJECTED_PREFIX} ${reason}`, isError: true };
}

/**
 * Converts an outcome into the tool-result output of an AI SDK message: an error becomes
 * `error-text`, a string `text`, anything else `json`.
 *
 * @returns the output stored in the conversation and sent to the model.
 */
export function modelOutputFor(outcome: ModelToolOutcome): ToolResultOutput {
  if (outcome.isError) {
    const value = typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
    return { type: "error-text", value };
  }
  if (typeof outcome.value === "string") return { type: "text", value: outcome.value };
  return { type: "json", value: outcome.value };
}
