import type { AttachReply } from "@mcp-chat-host/protocol";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { SourceError } from "./source-error";
import type { SourceTool } from "./source";

/** Who may call a tool: the model, or a card's page (the app). */
export type ToolAudience = "model" | "app";

/** The legacy flat key for a tool's view, still emitted by ext-apps' `registerAppTool`. */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

const ALL_AUDIENCES: readonly ToolAudience[] = ["model", "app"];

/** The text the model gets when a failed tool gave no text. */
export const TOOL_FAILED_TEXT = "The tool failed.";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function uiMeta(tool: Pick<SourceTool, "meta">): Record<string, unknown> | undefined {
  const ui = tool.meta?.["ui"];
  return isRecord(ui) ? ui : undefined;
}

/**
 * Converts a tool from an MCP `tools/list` answer into a {@link SourceTool}, keeping the
 * description, schemas, annotations and raw `_meta`.
 *
 * @returns a new object; the input is not changed.
 */
export function toSourceTool(tool: Tool): SourceTool {
  const result: SourceTool = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) result.title = tool.title;
  if (tool.description !== undefined) result.description = tool.description;
  if (tool.outputSchema !== undefined) result.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) result.annotations = tool.annotations;
  if (tool._meta !== undefined) result.meta = tool._meta;
  return result;
}

/**
 * The `ui://` resource a tool shows, read from `_meta.ui.resourceUri`, else from the legacy
 * `_meta["ui/resourceUri"]`.
 *
 * @returns the URI, or `undefined` when the tool shows no view.
 * @throws {SourceError} `invalid_view_uri` when the value is a string that does not start with `ui://`.
 */
export function toolResourceUri(tool: Pick<SourceTool, "meta" | "name">): string | undefined {
  const nested = uiMeta(tool)?.["resourceUri"];
  const legacy = tool.meta?.[LEGACY_RESOURCE_URI_KEY];
  const uri = typeof nested === "string" ? nested : typeof legacy === "string" ? legacy : undefined;
  if (uri === undefined) return undefined;
  if (!uri.startsWith("ui://")) {
    throw new SourceError(
      "invalid_view_uri",
      `The tool "${tool.name}" names its view "${uri}", which is not a ui:// URI; the server must fix its _meta.ui.resourceUri.`,
    );
  }
  return uri;
}

/**
 * Whether a tool declares a view (a string at `_meta.ui.resourceUri` or the legacy key), without
 * checking that it is a valid `ui://` URI. Use {@link toolResourceUri} to get the URI itself.
 */
export function toolHasView(tool: Pick<SourceTool, "meta">): boolean {
  return (
    typeof uiMeta(tool)?.["resourceUri"] === "string" ||
    typeof tool.meta?.[LEGACY_RESOURCE_URI_KEY] === "string"
  );
}

/**
 * Who may call a tool, from `_meta.ui.visibility`. Absent (or not an array) means both;
 * unknown entries are ignored, so `["app"]` hides the tool from the model.
 *
 * @returns the audiences, without duplicates, in the order `model`, `app`.
 */
export function toolVisibility(tool: Pick<SourceTool, "meta">): ToolAudience[] {
  const visibility = uiMeta(tool)?.["visibility"];
  if (!Array.isArray(visibility)) return [...ALL_AUDIENCES];
  return ALL_AUDIENCES.filter((audience) => visibility.includes(audience));
}

/** True when `audience` may call the tool (see {@link toolVisibility}). */
export function isVisibleTo(tool: Pick<SourceTool, "meta">, audience: ToolAudience): boolean {
  return toolVisibility(tool).includes(audience);
}

/**
 * The title to show for a tool: its `title`, else `annotations.title`, else its name.
 */
export function toolDisplayTitle(tool: Pick<SourceTool, "name" | "title" | "annotations">): string {
  return tool.title ?? tool.annotations?.title ?? tool.name;
}

/**
 * The text blocks of a result, joined with a newline (other block types are skipped).
 *
 * @returns the joined text; an empty string when there is none.
 */
export function resultText(result: Pick<CallToolResult, "content">): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  return blocks
    .filter((block) => block.type === "text")
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("\n");
}

/** What the model is given for a tool result: an error's text, or the result's value. */
export type ModelValue =
  /** The tool failed: the model sees an error with this text. */
  | { isError: true; text: string }
  /** The tool ran: the model sees this value (structured content, or the result's text). */
  | { isError: false; value: unknown };

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/**
 * The value the model sees for a tool result:
 * - an error result (`isError`) gives its text blocks joined with "\n", or "The tool failed.";
 * - otherwise `structuredContent`, unless it is empty or exactly `{ value: <scalar> }` (a single
 *   value wrapped only because structured content has to be an object): then the text.
 *
 * @returns a {@link ModelValue}.
 */
export function modelValue(result: CallToolResult): ModelValue {
  if (result.isError === true) {
    const text = resultText(result);
    return { isError: true, text: text === "" ? TOOL_FAILED_TEXT : text };
  }
  const structured: unknown = result.structuredContent;
  const loneValue =
    isRecord(structured) &&
    Object.keys(structured).length === 1 &&
    "value" in structured &&
    isScalar(structured["value"]);
  if (isEmpty(structured) || loneValue) return { isError: false, value: resultText(result) };
  return { isError: false, value: structured };
}

/** A source's tool as MCP defines it: what a page is told at attach and a gate's hook sees. */
export function toolDefinition(tool: SourceTool): AttachReply["tool"] & Tool {
  const info: AttachReply["tool"] & Tool = {
    name: tool.name,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
  };
  if (tool.title !== undefined) info.title = tool.title;
  if (tool.description !== undefined) info.description = tool.description;
  if (tool.annotations !== undefined) info.annotations = tool.annotations;
  if (tool.meta !== undefined) info._meta = tool.meta;
  return info;
}
