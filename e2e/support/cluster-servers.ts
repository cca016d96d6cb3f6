// The real MCP servers from npm a cluster node runs over stdio, each behind the tool counter
// (cluster-tool-counter.mjs), so the calls are counted at the server, whichever node made them,
// and a node killed with SIGKILL keeps the calls it made in the count.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serverCommand } from "./mcp-servers";

const counter = fileURLToPath(new URL("./cluster-tool-counter.mjs", import.meta.url));

/**
 * The mcpServers entry of one counted server.
 *
 * @param name - an npm server's short name (see mcp-servers.ts).
 * @param countsFile - where the counter appends one line per tool call.
 * @param folder - the node's folder (the debug server's log goes there).
 * @returns `{ command, args, box }` for the node's config file.
 */
export function countingServer(
  name: string,
  countsFile: string,
  folder: string,
): { command: string; args: string[]; box: { write: string[] } } {
  const server = serverCommand(name, folder);
  return {
    command: process.execPath,
    args: [counter, countsFile, server.command, ...server.args],
    // The counts file and the debug server's log are in the node's folder, which the server's
    // box must be able to write (its /tmp is a folder of its own).
    box: { write: [dirname(countsFile), folder] },
  };
}
