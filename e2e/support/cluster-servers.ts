// The real MCP servers from npm a cluster node runs over stdio, each behind the tool counter
// (cluster-tool-counter.mjs), so the calls are counted at the server, whichever node made them,
// and a node killed with SIGKILL keeps the calls it made in the count.
import { fileURLToPath } from "node:url";
import { serverCommand } from "./mcp-servers";

const counter = fileURLToPath(new URL("./cluster-tool-counter.mjs", import.meta.url));

/**
 * The mcpServers entry of one counted server.
 *
 * @param name - an npm server's short name (see mcp-servers.ts).
 * @param countsFile - where the counter appends one line per tool call.
 * @param folder - the node's folder (the debug server's log goes there).
 * @returns `{ command, args }` for the node's config file.
 */
export function countingServer(
  name: string,
  countsFile: string,
  folder: string,
): { command: string; args: string[] } {
  const server = serverCommand(name, folder);
  return { command: process.execPath, args: [counter, countsFile, server.command, ...server.args] };
}
