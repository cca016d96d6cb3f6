import { z } from "zod";
import type { McpAppOptions } from "./mcp-app-types";
import { SourceError } from "./source-error";

/** Tool names as the MCP SDK checks them (SEP-986). */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_APP_NAME_LENGTH = 128;

function invalid(message: string): SourceError {
  return new SourceError("invalid_options", message);
}

function checkShape(shape: unknown, where: string): void {
  if (shape === undefined) return;
  if (typeof shape !== "object" || shape === null || Array.isArray(shape)) {
    throw invalid(`${where} must be a zod object shape, such as { city: z.string() }.`);
  }
  for (const [key, value] of Object.entries(shape)) {
    if (!(value instanceof z.ZodType)) {
      throw invalid(`${where}.${key} must be a zod schema, such as z.string().`);
    }
  }
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/**
 * Checks the options of an `McpApp` before anything is built.
 *
 * @throws {SourceError} `invalid_options` for a missing or bad name, a duplicate or invalid tool
 *   name, a tool without description or handler, or a schema that is not a zod object shape.
 */
export function checkOptions(options: McpAppOptions): void {
  const { name } = options;
  if (
    typeof name !== "string" ||
    name.trim() === "" ||
    name.length > MAX_APP_NAME_LENGTH ||
    hasControlCharacter(name)
  ) {
    throw invalid(
      `An McpApp needs a name: a non-empty string of at most ${MAX_APP_NAME_LENGTH} characters without control characters.`,
    );
  }
  if (typeof options.html !== "string" && typeof options.html !== "function") {
    throw invalid(
      `The app "${name}" needs \`html\`: an HTML document, or a function returning one.`,
    );
  }
  if (options.prefersBorder !== undefined && typeof options.prefersBorder !== "boolean") {
    throw invalid(`\`prefersBorder\` of the app "${name}" must be true or false.`);
  }
  if (!Array.isArray(options.tools)) {
    throw invalid(`\`tools\` of the app "${name}" must be an array (it may be empty).`);
  }
  const seen = new Set<string>();
  for (const tool of options.tools) {
    const toolName: unknown = tool?.name;
    if (typeof toolName !== "string" || !TOOL_NAME_PATTERN.test(toolName)) {
      throw invalid(
        `The app "${name}" has a tool named ${JSON.stringify(toolName)}; tool names are 1-128 letters, digits, "_", "-" or ".".`,
      );
    }
    if (seen.has(toolName)) {
      throw invalid(
        `Tool names must be unique within an app; "${toolName}" is used twice in the app "${name}".`,
      );
    }
    seen.add(toolName);
    if (typeof tool.description !== "string") {
      throw invalid(
        `The tool "${toolName}" of the app "${name}" needs a description for the model.`,
      );
    }
    if (typeof tool.handler !== "function") {
      throw invalid(`The tool "${toolName}" of the app "${name}" needs a handler function.`);
    }
    checkShape(tool.inputSchema, `inputSchema of "${toolName}"`);
    checkShape(tool.outputSchema, `outputSchema of "${toolName}"`);
    if (
      tool.visibility !== undefined &&
      !(
        Array.isArray(tool.visibility) &&
        tool.visibility.every((entry) => entry === "model" || entry === "app")
      )
    ) {
      throw invalid(
        `\`visibility\` of the tool "${toolName}" must be an array of "model" and "app".`,
      );
    }
  }
}
