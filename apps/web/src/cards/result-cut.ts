// A tool result the host cut to its size cap says so in its `_meta`
// (packages/host/src/sources/capped-result.ts); the card's title bar shows it.

/** Where a cut result says so in its `_meta`. */
export const resultCutMetaKey = "io.github.mcp-chat-host/cut";

/** What a cut result's `_meta[resultCutMetaKey]` holds. */
export interface ResultCut {
  /** The size of the whole result's JSON, in characters. */
  originalChars: number;
  /** The cap it was cut to. */
  limit: number;
}

/**
 * Reads the cut note of a tool result.
 *
 * @returns the note, or null when the result was not cut (or the note is malformed).
 */
export function resultCutOf(result: Record<string, unknown> | null | undefined): ResultCut | null {
  const meta = result?._meta;
  if (meta === null || typeof meta !== "object") return null;
  const cut = (meta as Record<string, unknown>)[resultCutMetaKey];
  if (cut === null || typeof cut !== "object") return null;
  const { originalChars, limit } = cut as Record<string, unknown>;
  if (typeof originalChars !== "number" || typeof limit !== "number") return null;
  if (!Number.isFinite(originalChars) || !Number.isFinite(limit) || limit <= 0) return null;
  return { originalChars, limit };
}

/** "The result was cut to 200,000 characters", for the title bar. */
export function resultCutText(cut: ResultCut): string {
  return `The result was cut to ${cut.limit.toLocaleString("en-US")} characters`;
}
