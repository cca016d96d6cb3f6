// deputy's `tools_mcp`: loads the named servers over their shared connections (see
// `shared-connections.ts`) and returns their tools, warning rather than throwing when loading fails.
import { errorMessage } from "@mcp-chat-host/protocol";
import { sharedConnections, type SharedConnections } from "./shared-connections";
import type { McpConfigInput, SharedToolHandle } from "./shared-connection-types";

/** Options of {@link toolsMcp}. */
export interface ToolsMcpOptions {
  /** The registry to load into; {@link sharedConnections} by default. */
  connections?: SharedConnections;
  /** Receives warnings; `console.warn` by default. */
  warn?: (message: string) => void;
}

/**
 * Connects to the named servers over their shared connections and returns their tools. It never
 * throws for a loading failure: it warns and returns an empty list, as it does when the servers
 * offer no tools.
 *
 * @param config - a file path (default: mcptools' path), a loaded configuration or a document.
 * @param servers - exact server names; none or empty selects every server.
 * @param options - the registry and the warning sink.
 * @returns the tool handles, or an empty list.
 */
export async function toolsMcp(
  config?: McpConfigInput,
  servers?: readonly string[],
  options: ToolsMcpOptions = {},
): Promise<SharedToolHandle[]> {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  try {
    const loaded = await (options.connections ?? sharedConnections).load(config, servers);
    if (loaded.tools.length === 0) warn(noToolsWarning(loaded.servers));
    return loaded.tools;
  } catch (error) {
    warn(`Failed to fetch MCP tools: ${errorMessage(error)}`);
    return [];
  }
}

/**
 * The warning given when loading succeeded with no tools.
 *
 * @param servers - the servers loaded.
 * @returns the sentence.
 */
export function noToolsWarning(servers: readonly string[]): string {
  const names = servers.map((server) => `"${server}"`).join(", ");
  return servers.length === 0
    ? "No MCP servers are configured, so no MCP tools were loaded."
    : `The MCP servers ${names} offer no tools.`;
}
