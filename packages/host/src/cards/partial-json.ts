// The arguments a model is still writing, read as far as they go. Providers stream a tool call's
// arguments as JSON text in pieces; a card shows them while they arrive (`tool-input-partial`).
// The AI SDK's own `parsePartialJson` is asynchronous, and the turn's events are relayed
// synchronously and in order, so this small synchronous reader is used instead.

/** An object or array still open at the end of the text, and what it expects next. */
type Frame =
  | { kind: "object"; expect: "key" | "colon" | "value" | "comma" }
  | { kind: "array"; expect: "value" | "comma" };

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const TOKEN_END = new Set([",", "]", "}", ":", " ", "\t", "\n", "\r"]);

function closersOf(stack: readonly Frame[]): string {
  let closers = "";
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    closers += stack[index]?.kind === "object" ? "}" : "]";
  }
  return closers;
}

function tryParse(candidate: string | undefined): unknown {
  if (candidate === undefined) return undefined;
  try {
    return JSON.parse(candidate) as unknown;
  } catch {
    return undefined;
  }
}

/** Where a string starting at `start` (its opening quote) ends, or where its complete text stops. */
function scanString(text: string, start: number): { closed: boolean; end: number } {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') return { closed: true, end: index + 1 };
    if (char === "\\") {
      // An escape cut off by the end of the text is left out, not guessed.
      const escapeLength = text[index + 1] === "u" ? 6 : 2;
      if (index + escapeLength > text.length) return { closed: false, end: index };
      index += escapeLength;
      continue;
    }
    index += 1;
  }
  return { closed: false, end: text.length };
}

/**
 * Reads JSON text that may be cut off anywhere, as a model streams it: unclosed strings, objects
 * and arrays are closed; a key without its value, a trailing comma, a cut-off escape and a
 * half-written literal (`tr`, `-`, `1e`) are left out.
 *
 * @param text - the JSON text so far.
 * @returns the value it reads as, or undefined when nothing can be made of it (empty text, or
 *   text that is not JSON at all).
 */
export function parsePartialJson(text: string): unknown {
  const stack: Frame[] = [];
  // The text up to the last complete value (or opened container), closed: the fallback answer.
  let best: string | undefined;
  const valueDone = (end: number): void => {
    const top = stack.at(-1);
    if (top !== undefined) top.expect = "comma";
    best = text.slice(0, end) + closersOf(stack);
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? "";
    const top = stack.at(-1);
    if (WHITESPACE.has(char)) {
      index += 1;
    } else if (char === "{" || char === "[") {
      stack.push(
        char === "{" ? { kind: "object", expect: "key" } : { kind: "array", expect: "value" },
      );
      index += 1;
      best = text.slice(0, index) + closersOf(stack);
    } else if (char === "}" || char === "]") {
      if (top === undefined || (top.kind === "object") !== (char === "}")) break;
      stack.pop();
      index += 1;
      valueDone(index);
    } else if (char === ",") {
      if (top === undefined) break;
      top.expect = top.kind === "object" ? "key" : "value";
      index += 1;
    } else if (char === ":") {
      if (top?.kind !== "object") break;
      top.expect = "value";
      index += 1;
    } else if (char === '"') {
      const isKey = top?.kind === "object" && top.expect === "key";
      const scanned = scanString(text, index);
      if (!scanned.closed) {
        // A key cut off has no value yet; a value cut off is shown as far as it goes.
        if (isKey) break;
        const closed = tryParse(text.slice(0, scanned.end) + '"' + closersOf(stack));
        return closed !== undefined ? closed : tryParse(best);
      }
      index = scanned.end;
      if (isKey && top?.kind === "object") top.expect = "colon";
      else valueDone(index);
    } else {
      // A number or a literal: it ends at a delimiter, or at the end of the text so far.
      let end = index;
      while (end < text.length && !TOKEN_END.has(text[end] ?? "")) end += 1;
      if (end === text.length) {
        const closed = tryParse(text.slice(0, end) + closersOf(stack));
        return closed !== undefined ? closed : tryParse(best);
      }
      index = end;
      valueDone(index);
    }
  }
  return tryParse(best);
}

/**
 * The arguments a model has written so far, as an object: {@link parsePartialJson}, or `{}` when
 * the text does not (yet) read as a JSON object.
 *
 * @param text - the arguments' JSON text so far.
 * @returns a fresh object, never null.
 */
export function partialArguments(text: string): Record<string, unknown> {
  const value = parsePartialJson(text);
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
