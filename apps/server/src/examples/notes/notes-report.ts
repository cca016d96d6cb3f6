// The texts the Notes page sends to the host, as pure functions shared by the page (bundled into
// it) and the tests: the report that becomes model context, and the message "Ask the assistant"
// posts. Kept free of the DOM so they run in Node too.

/** How many lines of the notes the report quotes. */
const REPORT_LINE_LIMIT = 5;

/** How many characters of the notes the report quotes, at most. */
export const REPORT_CHARACTER_LIMIT = 500;

/** How many characters of the notes "Ask the assistant" sends, at most. */
export const ASK_CHARACTER_LIMIT = 4_000;

/** The most characters the notes may hold; `save-notes` refuses more. */
export const NOTES_CHARACTER_LIMIT = 20_000;

/** What the page reports as model context: the text block and the structured state. */
export interface NotesReport {
  /** `Notes (N words):` then the first lines of the notes. */
  text: string;
  /** The state: the word count and the whole text. */
  structuredContent: { words: number; text: string };
}

/**
 * Counts the words of a text: runs of characters between whitespace.
 *
 * @returns the count; 0 for an empty or blank text.
 */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/u).length;
}

/**
 * Says how many words there are: "1 word", "3 words".
 *
 * @returns the phrase.
 */
export function wordPhrase(words: number): string {
  return words === 1 ? "1 word" : `${words} words`;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 3)}...`;
}

/**
 * Builds the report the page sends with `ui/update-model-context`: a first line
 * `Notes (N words):`, then at most {@link REPORT_LINE_LIMIT} lines of the notes, cut to
 * {@link REPORT_CHARACTER_LIMIT} characters; empty notes say `(empty)`.
 *
 * @returns the text block and the structured state.
 */
export function notesReport(text: string): NotesReport {
  const words = countWords(text);
  const lines = text.trim().split(/\r?\n/u).slice(0, REPORT_LINE_LIMIT).join("\n");
  const quoted = words === 0 ? "(empty)" : cut(lines, REPORT_CHARACTER_LIMIT);
  return {
    text: `Notes (${wordPhrase(words)}):\n${quoted}`,
    structuredContent: { words, text },
  };
}

/**
 * The message "Ask the assistant about this" posts as the person's: `Summarise my notes:` and the
 * notes, cut to {@link ASK_CHARACTER_LIMIT} characters.
 *
 * @returns the message text.
 */
export function askText(text: string): string {
  return `Summarise my notes:\n${cut(text.trim(), ASK_CHARACTER_LIMIT)}`;
}

/**
 * The `localStorage` key of the notes opened with a given tool input, so two cards opened with
 * different starting texts keep separate drafts while a card reopened with the same input finds
 * its own. The input is hashed (FNV-1a, 32 bits) to keep the key short.
 *
 * @returns the key, `mcp-chat-host.notes:` and eight hex digits.
 */
export function notesStorageKey(toolArguments: Record<string, unknown> | undefined): string {
  const start = typeof toolArguments?.["text"] === "string" ? toolArguments["text"] : "";
  let hash = 0x811c9dc5;
  for (const character of JSON.stringify(start)) {
    hash ^= character.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `mcp-chat-host.notes:${hash.toString(16).padStart(8, "0")}`;
}
