// The MCP servers the specs give the program, as entries of its `mcpServers` config file: real
// servers from npm by a short name (`basic-vanillajs`, `debug`, ...), and the suite's own
// fixtures by their folder (`./fixtures/hostile-app`), each run over stdio with this Node.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/** The npm package of each server name the specs use. */
const npmServerPackages: Readonly<Record<string, string>> = {
  "basic-vanillajs": "@modelcontextprotocol/server-basic-vanillajs",
  "basic-react": "@modelcontextprotocol/server-basic-react",
  "basic-vue": "@modelcontextprotocol/server-basic-vue",
  "basic-preact": "@modelcontextprotocol/server-basic-preact",
  "basic-solid": "@modelcontextprotocol/server-basic-solid",
  "basic-svelte": "@modelcontextprotocol/server-basic-svelte",
  "system-monitor": "@modelcontextprotocol/server-system-monitor",
  debug: "@modelcontextprotocol/server-debug",
};

/** A stdio entry of the config file. */
export interface StdioServerEntry {
  command: string;
  args: string[];
}

/**
 * The entry point (`bin`) of a server package: an npm package by name, or a fixture's folder
 * relative to this one (`./fixtures/probe-app`).
 */
function serverEntryPoint(pkg: string): string {
  // Not `require.resolve(`${pkg}/package.json`)`: the npm servers' `exports` do not list it.
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
 * The command and arguments that run one server over stdio.
 *
 * @param name - a short npm name ({@link npmServerPackages}) or a fixture folder (`./fixtures/…`).
 * @param folder - where the server may write (the debug server's log goes there, not to /tmp).
 * @returns the program and its arguments.
 * @throws for a name that is neither.
 */
export function serverCommand(name: string, folder: string): StdioServerEntry {
  const pkg = npmServerPackages[name] ?? (name.startsWith("./fixtures/") ? name : undefined);
  if (pkg === undefined) throw new Error(`No MCP server is known by the name ${name}.`);
  const args = [serverEntryPoint(pkg), "--stdio"];
  if (name === "debug") args.push(`--log-file=${join(folder, "debug-server.log")}`);
  return { command: process.execPath, args };
}
