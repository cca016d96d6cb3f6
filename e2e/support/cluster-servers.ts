// The real MCP servers from npm a cluster node runs over stdio, each behind the tool counter
// (cluster-tool-counter.mjs), so the calls are counted at the server, whichever node made them.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const counter = fileURLToPath(new URL("./cluster-tool-counter.mjs", import.meta.url));

/** The npm package of each server name the cluster knows. */
const clusterServerPackages: Readonly<Record<string, string>> = {
  "basic-vanillajs": "@modelcontextprotocol/server-basic-vanillajs",
  "basic-react": "@modelcontextprotocol/server-basic-react",
  "system-monitor": "@modelcontextprotocol/server-system-monitor",
  debug: "@modelcontextprotocol/server-debug",
};

/** The entry point of an installed npm server (its `bin`). */
function serverEntry(pkg: string): string {
  // Not `require.resolve(`${pkg}/package.json`)`: these packages' `exports` do not list it.
  const manifestPath = (require.resolve.paths(pkg) ?? [])
    .map((folder) => join(folder, pkg, "package.json"))
    .find((candidate) => existsSync(candidate));
  if (manifestPath === undefined) {
    throw new Error(`The package ${pkg} is not installed; run npm install.`);
  }
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  return join(manifestPath, "..", bin ?? "dist/index.js");
}

/**
 * The mcpServers entry of one counted server.
 *
 * @param name - a key of {@link clusterServerPackages}.
 * @param countsFile - where the counter appends one line per tool call.
 * @param folder - the node's folder (the debug server's log goes there).
 * @returns `{ command, args }` for the node's config file.
 */
export function countingServer(
  name: string,
  countsFile: string,
  folder: string,
): { command: string; args: string[] } {
  const pkg = clusterServerPackages[name];
  if (pkg === undefined) throw new Error(`No npm server is known by the name ${name}.`);
  const args = [counter, countsFile, process.execPath, serverEntry(pkg), "--stdio"];
  if (name === "debug") args.push(`--log-file=${join(folder, "debug-server.log")}`);
  return { command: process.execPath, args };
}
