/**
 * The params of a card's `ui/update-model-context` request or of its `ui/message` request, as the
 * page sent them. Typed loosely on purpose: they come from an untrusted page, so every field is
 * checked here before it is read.
 */
export interface AppContentParams {
  /** MCP content blocks; only `{ type: "text", text: string }` blocks are read. */
  readonly content?: unknown;
  /** Machine-readable data; included as JSON when it is a non-empty object or array. */
  readonly structuredContent?: unknown;
}

/**
 * The text of a report: every content block of type
 * `"text"` whose `text` is a string, then the JSON of `structuredContent` when it is non-empty,
 * all joined with `"\n"`.
 *
 * @param params - the page's params; `null`/`undefined` or junk give `""`.
 * @returns the text, possibly `""`; never throws.
 */
export function reportText(params: AppContentParams | null | undefined): string {
  if (params === null || params === undefined || typeof params !== "object") return "";
  const parts: string[] = [];
  if (Array.isArray(params.content)) {
    for (const block of params.content as unknown[]) {
      if (isTextBlock(block)) parts.push(block.text);
    }
  }
  const structured = structuredJson(params.structuredContent);
  if (structured !== null) parts.push(structured);
  return parts.join("\n");
}

function isTextBlock(block: unknown): block is { type: "text"; text: string } {
  if (block === null || typeof block !== "object") return false;
  const candidate = block as { type?: unknown; text?: unknown };
  return candidate.type === "text" && typeof candidate.text === "string";
}

/** JSON of structured content, or null when there is nothing in it (R's `length(x) > 0`). */
function structuredJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) {
    return null;
  }
  try {
    // A page can send anything through postMessage's structured clone, but our wire is JSON;
    // a value JSON can't write (a BigInt, a cycle) counts as no structured content.
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
