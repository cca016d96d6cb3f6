import type { HttpAnswer } from "../provider-api";
import { openaiInvalidRequest } from "./openai-errors";

/** The pattern OpenAI holds function names to, and their longest length. */
const openaiToolName = { pattern: /^[a-zA-Z0-9_-]+$/, maximumLength: 64 } as const;

/**
 * Checks one function name the way the OpenAI API does (in `tools` and in earlier tool calls).
 *
 * @param param where the name sits, as the API names it (`tools[0].function.name`).
 * @returns the API's 400 refusal, or undefined when the name is accepted.
 */
export function checkOpenaiToolName(name: unknown, param: string): HttpAnswer | undefined {
  if (typeof name !== "string") {
    return openaiInvalidRequest(
      `Invalid type for '${param}': expected a string, but got ${name === undefined || name === null ? "null" : typeof name} instead.`,
      param,
      "invalid_type",
    );
  }
  if (name.length === 0) {
    return openaiInvalidRequest(
      `Invalid '${param}': empty string. Expected a string with minimum length 1, but got an empty string instead.`,
      param,
      "empty_string",
    );
  }
  if (name.length > openaiToolName.maximumLength) {
    return openaiInvalidRequest(
      `Invalid '${param}': string too long. Expected a string with maximum length ${openaiToolName.maximumLength}, but got a string with length ${name.length} instead.`,
      param,
      "string_above_max_length",
    );
  }
  if (!openaiToolName.pattern.test(name)) {
    return openaiInvalidRequest(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      "invalid_value",
    );
  }
  return undefined;
}

/**
 * Refuses two tools with one name. The real wording of this refusal was not found in public
 * material; the status and error type are the API's, the message is the stand-in's.
 *
 * @returns the 400 refusal, or undefined when every name is unique.
 */
export function checkOpenaiDuplicateNames(names: readonly string[]): HttpAnswer | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      return openaiInvalidRequest(
        `Invalid 'tools': duplicate function name '${name}'. Tool names must be unique.`,
        "tools",
        "invalid_value",
      );
    }
    seen.add(name);
  }
  return undefined;
}
