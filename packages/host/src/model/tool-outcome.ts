import type { JSONValue } from "@ai-sdk/provider";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { CallToolResult } from "@modelcontextprotocol/client";

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

/** What the model sees when a failed call carries no text of its own (seed 1.3). */
export const TOOL_FAILED_TEXT = "The tool failed.";

/** The prefix of every refusal the model sees, before the refusal's reason. */
export const TOOL_REJECTED_PREFIX = "Tool call rejected.";

/**
 * Joins the text blocks of an MCP result with newlines, ignoring every other kind of block.
 *
 * @returns the joined text; "" when the result has no text block.
 */
export function resultText(result: CallToolResult): string {
  const texts: string[] = [];
  for (const block of result.content) {
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.join("\n");
}

/**
 * Structured content that says no more than the text does: empty, or exactly `{ value: <scalar> }`
 * (the shape helper libraries wrap a plain return value in). Seed 1.3 falls back to the text then.
 */
function isUninformative(structured: Record<string, unknown>): boolean {
  const keys = Object.keys(structured);
  if (keys.length === 0) return true;
  if (keys.length !== 1 || keys[0] !== "value") return false;
  const value = structured["value"];
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/**
 * Turns an MCP tool result into what the model sees, by the default rule of seed 1.3: an error
 * gives its text blocks joined with "\n" (or "The tool failed." when there is none); otherwise the
 * structured content, or the text when the structured content is empty or just `{ value: scalar }`.
 *
 * @returns the outcome, with `raw` set to the result itself.
 */
export function toolOutcomeFromResult(result: CallToolResult): ModelToolOutcome {
  const text = resultText(result);
  if (result.isError === true) {
    return { value: text === "" ? TOOL_FAILED_TEXT : text, isError: true, raw: result };
  }
  const structured = result.structuredContent as Record<string, unknown> | undefined | null;
  if (structured !== undefined && structured !== null && !isUninformative(structured)) {
    // structuredContent arrived as JSON, so it is a JSON value.
    return { value: structured as JSONValue, isError: false, raw: result };
  }
  return { value: text, isError: false, raw: result };
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
