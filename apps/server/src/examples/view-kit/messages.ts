// Turns what the host answers into one sentence a view can show. A refused or failed request
// rejects with the host's JSON-RPC error, whose message the MCP SDK may prefix with
// "MCP error <code>: "; a tool that failed answers a result with `isError` and its text.
import type { McpUiToolResultNotification } from "@modelcontextprotocol/ext-apps";

/** A tool's result as a view receives it (MCP `CallToolResult`). */
export type ToolResult = McpUiToolResultNotification["params"];

const SDK_PREFIX = /^MCP error -?\d+:\s*/u;

/**
 * The message of a rejected request, without the SDK's `MCP error <code>:` prefix, for the view to
 * show. (Views are bundled for the browser on their own, so this does not import the protocol
 * package's `errorMessage`, whose package brings zod.)
 *
 * @returns the host's text, or a generic sentence when the error has none.
 */
export function requestErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  const text = message.replace(SDK_PREFIX, "").trim();
  return text === "" ? "The host did not complete the request." : text;
}

/**
 * The text blocks of a tool result joined with newlines.
 *
 * @returns the text, or `fallback` when the result has none.
 */
export function resultText(result: ToolResult, fallback = ""): string {
  const text = result.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n")
    .trim();
  return text === "" ? fallback : text;
}
