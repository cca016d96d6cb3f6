// A tool result can be any size a server likes (8 MB of text, a dozen large images). What the
// host stores, sends to the browser and gives the model is capped: a result over the limit keeps
// its text from the start, as much as fits, and says that it was cut, both in a text block (the
// model and the view read it) and in `_meta` (the card's title bar shows it).
import type { CallToolResult } from "@modelcontextprotocol/client";

/** Where a cut result says so in its `_meta`. */
export const RESULT_CUT_META_KEY = "io.github.mcp-chat-host/cut";

/** The default cap of a tool result's JSON, in characters. */
export const DEFAULT_TOOL_RESULT_LIMIT = 200_000;

/** What `_meta[RESULT_CUT_META_KEY]` holds. */
export interface ResultCut {
  /** The size of the whole result's JSON, in characters. */
  originalChars: number;
  /** The cap it was cut to. */
  limit: number;
}

/** Room kept for the note and the JSON around the kept text. */
const OVERHEAD_CHARS = 1_000;

/**
 * Caps a tool result. Under the limit it is returned as it is. Over it, the text blocks are kept
 * in order, the last one shortened to fit; images, audio, resources and `structuredContent` are
 * left out; a last text block and `_meta[RESULT_CUT_META_KEY]` say what happened. `isError` is
 * kept.
 *
 * @param result - the result as the server sent it.
 * @param limit - the most characters of JSON to keep (at least 2,000).
 * @returns the result to store and pass on.
 */
export function capToolResult(result: CallToolResult, limit: number): CallToolResult {
  // Most results are far under the cap: a cheap bound on their JSON's length proves it without
  // building the JSON. Only a result the bound cannot clear is serialised to be measured.
  if (jsonLengthBound(result, limit) <= limit) return result;
  const json = JSON.stringify(result);
  if (json.length <= limit) return result;
  let room = Math.max(limit, 2_000) - OVERHEAD_CHARS;
  const content: CallToolResult["content"] = [];
  for (const block of result.content) {
    if (block.type !== "text" || room <= 0) continue;
    // JSON escapes can double a character's size; count the escaped length.
    const size = JSON.stringify(block.text).length;
    if (size <= room) {
      content.push({ type: "text", text: block.text });
      room -= size;
      continue;
    }
    content.push({ type: "text", text: fitted(block.text, room) });
    room = 0;
  }
  content.push({
    type: "text",
    text:
      `[The host cut this tool result: it had ${json.length.toLocaleString("en-US")} characters, ` +
      `and at most ${limit.toLocaleString("en-US")} are kept. Only the start of its text is shown.]`,
  });
  const cut: ResultCut = { originalChars: json.length, limit };
  return {
    content,
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    _meta: { [RESULT_CUT_META_KEY]: cut },
  };
}

/** The most characters a number's JSON takes. */
const MAX_NUMBER_CHARS = 25;

/** Characters a JSON string can take per UTF-16 unit at most (`\u001f`). */
const MAX_ESCAPED_CHARS = 6;

/**
 * An upper bound on the length of `JSON.stringify(value)`: never less than the real length, and
 * close to it for plain text. It stops counting once past `stop` (the answer is then only known
 * to be over it); a value it cannot bound (a cycle, `toJSON`, an exotic object) counts as
 * infinite, so the caller measures the real JSON.
 */
function jsonLengthBound(value: unknown, stop: number): number {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    if (total > stop) return total;
    const item = pending.pop();
    switch (typeof item) {
      case "string":
        total += 2 + item.length * MAX_ESCAPED_CHARS;
        continue;
      case "number":
      case "boolean":
        // A number prints in at most 25 characters (`-0.0000012345678901234567`); a boolean in 5.
        total += MAX_NUMBER_CHARS;
        continue;
      case "undefined":
      case "function":
      case "symbol":
        // Left out of objects, `null` in arrays.
        total += 4;
        continue;
      case "bigint":
        return Number.POSITIVE_INFINITY;
    }
    if (item === null) {
      total += 4;
      continue;
    }
    if (Array.isArray(item)) {
      // Brackets and a comma after each element.
      total += 2 + item.length;
      for (const element of item) pending.push(element);
      if (pending.length > stop) return Number.POSITIVE_INFINITY;
      continue;
    }
    const prototype: unknown = Object.getPrototypeOf(item);
    if ((prototype !== Object.prototype && prototype !== null) || "toJSON" in (item as object)) {
      return Number.POSITIVE_INFINITY;
    }
    total += 2;
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // The quoted key, the colon and a comma.
      total += 4 + key.length * MAX_ESCAPED_CHARS;
      pending.push(record[key]);
    }
    if (pending.length > stop) return Number.POSITIVE_INFINITY;
  }
  return total;
}

/** The longest start of `text` whose JSON fits in `room` characters. */
function fitted(text: string, room: number): string {
  let low = 0;
  let high = Math.min(text.length, room);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (JSON.stringify(text.slice(0, middle)).length <= room) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, low);
}
