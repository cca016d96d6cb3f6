// Reading the configuration file from disk: the default path and `~` expansion.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { resolve as resolvePath } from "node:path";
import { McpConfigError, processingFailed } from "./config-error";
import type { McpConfig } from "./config-types";
import { parseMcpConfig, type ParseMcpConfigOptions } from "./parse-config";

/** Where mcptools looks when no configuration is named; `~` is expanded on load. */
export const defaultMcpConfigPath = "~/.config/mcptools/config.json";

/**
 * Replaces `~` or a leading `~/` with the home directory and makes the path absolute.
 *
 * @param path - a file path as an operator writes it.
 * @returns the absolute path.
 */
export function expandHomePath(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return resolvePath(homedir(), path.slice(2));
  return resolvePath(path);
}

/**
 * Reads and validates a configuration file. An empty file is a configuration with no servers.
 *
 * @param path - the file; `~` is expanded. Defaults to {@link defaultMcpConfigPath}.
 * @param options - environment for header interpolation.
 * @returns the validated configuration, with `source` set to the absolute path.
 * @throws McpConfigError when the file is missing or unreadable, or fails {@link parseMcpConfig}.
 */
export async function loadMcpConfig(
  path: string = defaultMcpConfigPath,
  options: Omit<ParseMcpConfigOptions, "source"> = {},
): Promise<McpConfig> {
  const absolutePath = expandHomePath(path);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new McpConfigError(
        `The MCP client configuration file does not exist. Looked for ${absolutePath}; create it or name another file.`,
      );
    }
    throw new McpConfigError(
      `${processingFailed}: ${absolutePath} could not be read (${code ?? "unknown error"}). Check the path and its permissions.`,
    );
  }
  return parseMcpConfig(text, { ...options, source: absolutePath });
}
