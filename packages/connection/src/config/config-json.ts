// Reading a configuration file's JSON text: its syntax errors by position only (never by content,
// which may hold a secret), and the duplicated server names JSON.parse would silently drop.
import { visit } from "jsonc-parser";
import { McpConfigError, processingFailed } from "./config-error";

/**
 * Parses JSON text, reporting a syntax error by its line and column only.
 *
 * @throws McpConfigError when the text is not valid JSON.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // V8's own message can quote a slice of the file, which may hold a secret: report only where
    // (jsonc-parser's first syntax error, as a line and a column).
    const where = firstSyntaxError(text);
    throw new McpConfigError(
      `${processingFailed}: the configuration is not valid JSON${where === undefined ? "" : ` (${where})`}. Fix the syntax and try again.`,
    );
  }
}

/** Where the first syntax error of `text` is (`line 2, column 23`), or undefined when none is found. */
function firstSyntaxError(text: string): string | undefined {
  let where: string | undefined;
  visit(
    text,
    {
      onError: (_error, _offset, _length, startLine, startCharacter) => {
        where ??= `line ${startLine + 1}, column ${startCharacter + 1}`;
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return where;
}

/**
 * Finds a key that appears twice in the top-level object as `mcpServers`, or in an `mcpServers`
 * object, of valid JSON text. JSON.parse keeps only the last of duplicated keys, silently.
 */
export function findDuplicateServerKey(
  text: string,
): { key: string; where: "root" | "servers" } | undefined {
  // One key set per open object; null for objects whose keys are not checked.
  const open: Array<Set<string> | null> = [];
  let found: { key: string; where: "root" | "servers" } | undefined;
  visit(text, {
    onObjectBegin: (_offset, _length, _line, _character, pathSupplier) => {
      const path = pathSupplier();
      const checked = path.length === 0 || (path.length === 1 && path[0] === "mcpServers");
      open.push(checked ? new Set() : null);
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, _offset, _length, _line, _character, pathSupplier) => {
      const keys = open.at(-1);
      if (found !== undefined || keys === null || keys === undefined) return;
      const root = pathSupplier().length === 0;
      // At the top level only `mcpServers` itself must be unique.
      if (root && key !== "mcpServers") return;
      if (keys.has(key)) found = { key, where: root ? "root" : "servers" };
      keys.add(key);
    },
  });
  return found;
}
