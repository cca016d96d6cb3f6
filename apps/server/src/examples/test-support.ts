// Helpers shared by the example apps' tests: open a real in-process source of an app (closed after
// each test) and read a listed tool's view metadata the way the host does.
import type { McpApp } from "@mcp-chat-host/host";
import { afterEach } from "vitest";

/** The source type, taken from `McpApp.source` so the tests need no other host export. */
export type AppSource = Awaited<ReturnType<McpApp["source"]>>;

/** A tool as a source lists it. */
export type ListedTool = Awaited<ReturnType<AppSource["tools"]>>[number];

const opened: AppSource[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((source) => source.close()));
});

/**
 * Opens a source on a fresh server instance of the app; it is closed after the current test.
 *
 * @returns the connected source.
 */
export async function openSource(app: McpApp): Promise<AppSource> {
  const source = await app.source({ timeout: 10 });
  opened.push(source);
  return source;
}

/**
 * The listed tool of that name.
 *
 * @throws {Error} when the source lists no such tool.
 */
export async function listedTool(source: AppSource, name: string): Promise<ListedTool> {
  const tool = (await source.tools()).find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`The source lists no tool "${name}".`);
  return tool;
}

function uiMeta(tool: ListedTool): Record<string, unknown> {
  const ui = tool.meta?.["ui"];
  return typeof ui === "object" && ui !== null ? (ui as Record<string, unknown>) : {};
}

/**
 * Who may call a tool, read from `_meta.ui.visibility` (both the model and the page when absent).
 *
 * @returns the audiences.
 */
export function visibilityOf(tool: ListedTool): string[] {
  const visibility = uiMeta(tool)["visibility"];
  return Array.isArray(visibility) ? visibility.map(String) : ["model", "app"];
}

/**
 * The `ui://` page a tool shows, from `_meta.ui.resourceUri` or the legacy flat key.
 *
 * @returns the URI, or `undefined` for a tool without a view.
 */
export function viewOf(tool: ListedTool): string | undefined {
  const nested = uiMeta(tool)["resourceUri"];
  const legacy = tool.meta?.["ui/resourceUri"];
  if (typeof nested === "string") return nested;
  return typeof legacy === "string" ? legacy : undefined;
}

/**
 * The text blocks of a tool result, joined with newlines.
 *
 * @returns the text.
 */
export function textOf(result: {
  content: ReadonlyArray<{ type: string; text?: unknown }>;
}): string {
  return result.content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("\n");
}
