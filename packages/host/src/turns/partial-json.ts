// The arguments a model is still writing, read as far as they go. Providers stream a tool call's
// arguments as JSON text in pieces; a card shows them while they arrive (`tool-input-partial`).
// The AI SDK's own `parsePartialJson` is asynchronous, and the turn's events are relayed
// synchronously and in order, so the synchronous `partial-json` package reads them instead.
import { Allow, parse } from "partial-json";

/** A whole JSON number, as `JSON.parse` reads it. */
const WHOLE_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The number (or number-like run) the text ends with, or "" when it ends otherwise. */
const TRAILING_NUMBER = /[-+.eE\d]+$/;

/**
 * Reads JSON text that may be cut off anywhere, as a model streams it: unclosed strings, objects
 * and arrays are closed; a key without its value, a trailing comma, a cut-off escape and a
 * half-written literal (`tr`, `-`, `1e`) are left out. A number at the very end is kept only when
 * it already reads as a whole number (`1` is kept, `1.` and `1e` are not); `partial-json` can
 * only keep every cut-off number or none, so that choice is made here.
 *
 * @param text - the JSON text so far.
 * @returns the value it reads as, or undefined when nothing can be made of it (empty text, or
 *   text that is not JSON at all).
 */
export function parsePartialJson(text: string): unknown {
  const trailing = TRAILING_NUMBER.exec(text)?.[0] ?? "";
  const allow = Allow.STR | Allow.OBJ | Allow.ARR | (WHOLE_NUMBER.test(trailing) ? Allow.NUM : 0);
  try {
    return parse(text, allow) as unknown;
  } catch {
    // Empty text, or text that is not JSON: nothing to show yet.
    return undefined;
  }
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
