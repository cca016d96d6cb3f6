// Picking entries of a validated configuration by exact name, and the share mode each one uses.
import { McpConfigError, notUniquelyNamed } from "./config-error";
import type { McpConfig, McpServerConfig, McpShareMode } from "./config-types";

const unknownServers = "`servers` must name configured MCP servers exactly.";

/**
 * The share mode that applies to an entry: its own `share`, else `"process"` for stdio servers
 * (one child process is shared) and `"conversation"` for remote ones (each conversation keeps
 * its own server session).
 *
 * @param server - a validated entry.
 * @returns the mode to use.
 */
export function effectiveShareMode(server: McpServerConfig): McpShareMode {
  return server.share ?? (server.kind === "stdio" ? "process" : "conversation");
}

/**
 * Picks entries by exact name. No names, or an empty list, selects every server.
 *
 * @param config - a validated configuration.
 * @param names - exact server names; repeated names are selected once.
 * @returns the selected entries, in the order named (file order when selecting all).
 * @throws McpConfigError when a name is not configured exactly (case and spacing count).
 */
export function selectServers(config: McpConfig, names?: readonly string[]): McpServerConfig[] {
  if (names === undefined || names.length === 0) return Object.values(config.servers);
  const unknown = names.filter((name) => typeof name !== "string" || !hasServer(config, name));
  if (unknown.length > 0) {
    const listed = unknown.map((name) => JSON.stringify(String(name))).join(", ");
    const known = Object.keys(config.servers)
      .map((name) => JSON.stringify(name))
      .join(", ");
    throw new McpConfigError(
      `${unknownServers} Not configured: ${listed}. Configured: ${known === "" ? "none" : known}.`,
    );
  }
  return [...new Set(names)].map((name) => config.servers[name] as McpServerConfig);
}

/**
 * Picks the one entry with exactly this name.
 *
 * @param config - a validated configuration.
 * @param name - the exact server name.
 * @returns the entry.
 * @throws McpConfigError "Select one exact, uniquely named MCP server configuration." when the
 *   name is empty or not configured.
 */
export function selectServer(config: McpConfig, name: string): McpServerConfig {
  if (typeof name !== "string" || name === "" || !hasServer(config, name)) {
    throw new McpConfigError(
      `${notUniquelyNamed} No server is configured under the name ${JSON.stringify(String(name))}.`,
    );
  }
  return config.servers[name] as McpServerConfig;
}

function hasServer(config: McpConfig, name: string): boolean {
  return Object.hasOwn(config.servers, name);
}
