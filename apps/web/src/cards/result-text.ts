// The text of a tool result, shown where its card's view cannot be.

/**
 * The text blocks of a tool result's `content`, one per line.
 *
 * @returns the text; "" when the result has none (or there is no result).
 */
export function resultText(result: Record<string, unknown> | null): string {
  const content = result?.content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) =>
      block !== null &&
      typeof block === "object" &&
      (block as { type?: unknown }).type === "text" &&
      typeof (block as { text?: unknown }).text === "string"
        ? (block as { text: string }).text
        : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}
