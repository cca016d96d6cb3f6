// The steps of a connection that need none of its state: checking its options, finding its
// server's entry in the configuration, listing the server's tools (checking each allowed one
// exists and every descriptor's annotations), fetching one catalogue page, and naming a startup
// failure.
import type { Tool } from "@modelcontextprotocol/client";
import { errorMessage } from "@mcp-chat-host/protocol";
import { McpConfigError } from "./config/config-error";
import type { McpServerConfig } from "./config/config-types";
import { loadMcpConfig } from "./config/load-config";
import { parseMcpConfig } from "./config/parse-config";
import { selectServer } from "./config/select-servers";
import { McpConnectionError, McpStartupError, McpValidationError } from "./connection-errors";
import type { McpClientSession } from "./mcp-client-session";
import {
  validateAllowlist,
  validateOwner,
  validateSeconds,
  validateToolAnnotations,
  type McpCatalogueKind,
  type McpOwner,
} from "./mcp-connection-validation";
import type { McpAllowlists, McpCataloguePage, McpConnectionOptions } from "./mcp-connection-types";

/** Most pages of tools a server may list at startup. */
const maxToolPages = 64;

/** A connection's options, checked. */
export interface CheckedConnectionOptions {
  owner: Readonly<McpOwner>;
  allowed: Readonly<McpAllowlists>;
  timeout: number | undefined;
  startupTimeout: number | undefined;
  server: string;
}

/**
 * Checks a connection's options before any process starts.
 *
 * @throws McpValidationError for a bad owner, allowlist, timeout, server or config argument.
 */
export function validateConnectionOptions(options: McpConnectionOptions): CheckedConnectionOptions {
  if (typeof options !== "object" || options === null) {
    throw new McpValidationError("Pass the connection's options as an object.");
  }
  const owner = validateOwner(options.owner);
  const allowed = Object.freeze({
    tools: validateAllowlist("tools", options.tools),
    resources: validateAllowlist("resources", options.resources),
    prompts: validateAllowlist("prompts", options.prompts),
  });
  const timeout = validateSeconds("timeout", options.timeout);
  const startupTimeout = validateSeconds("startupTimeout", options.startupTimeout);
  const config: unknown = options.config;
  const validConfig =
    (typeof config === "string" && config !== "") ||
    (typeof config === "object" && config !== null);
  if (typeof options.server !== "string" || options.server === "" || !validConfig) {
    throw new McpValidationError("Select one exact, uniquely named MCP server configuration.");
  }
  return { owner, allowed, timeout, startupTimeout, server: options.server };
}

/**
 * Lists every tool page, checks each allowed tool exists and every descriptor's annotations.
 *
 * @returns every definition the server offered (frozen), and the definitions by name.
 * @throws McpStartupError for too many pages or a missing allowed tool; McpValidationError for
 *   malformed annotations.
 */
export async function listAllowedTools(
  session: McpClientSession,
  server: string,
  allowedTools: readonly string[],
  requestOptions: { timeout?: number },
): Promise<{ definitions: readonly Tool[]; byName: ReadonlyMap<string, Tool> }> {
  const definitions: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page += 1) {
    if (page === maxToolPages) {
      throw new McpStartupError(
        `MCP server "${server}" listed more than ${maxToolPages} pages of tools.`,
      );
    }
    const result = await session.listTools(cursor, requestOptions);
    definitions.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  const byName = new Map(definitions.map((tool) => [tool.name, tool]));
  if (!allowedTools.every((name) => byName.has(name))) {
    throw new McpStartupError("The MCP server did not supply every allowed tool.");
  }
  for (const tool of definitions) validateToolAnnotations(tool.name, tool.annotations);
  return { definitions: Object.freeze(definitions), byName };
}

/** The configuration entry of the selected server, from a file path or a parsed config. */
export async function resolveServerEntry(
  config: McpConnectionOptions["config"],
  server: string,
): Promise<McpServerConfig> {
  const loaded =
    typeof config === "string"
      ? await loadMcpConfig(config)
      : "servers" in config && !("mcpServers" in config)
        ? config
        : parseMcpConfig(config);
  return selectServer(loaded, server);
}

/**
 * Fetches one page of a catalogue from the session.
 *
 * @returns the page of that kind.
 */
export function listCataloguePage<Kind extends McpCatalogueKind>(
  session: McpClientSession,
  kind: Kind,
  cursor: string | undefined,
  options: { timeout?: number },
): Promise<McpCataloguePage[Kind]> {
  const pages: { [K in McpCatalogueKind]: () => Promise<McpCataloguePage[K]> } = {
    tools: () => session.listTools(cursor, options),
    resources: () => session.listResources(cursor, options),
    resource_templates: () => session.listResourceTemplates(cursor, options),
    prompts: () => session.listPrompts(cursor, options),
  };
  return pages[kind]();
}

/**
 * What a failed start is reported as: the connection's and the configuration's own errors as
 * they are, anything else as a startup failure naming the server.
 */
export function asStartupFailure(error: unknown, server: string): Error {
  return error instanceof McpConnectionError || error instanceof McpConfigError
    ? error
    : new McpStartupError(`MCP server "${server}" failed during startup: ${errorMessage(error)}`, {
        cause: error,
      });
}
