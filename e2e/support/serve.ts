// The host as the end-to-end tests run it: the same setup as `npm start` (example apps, offline
// model, a SQLite file), plus real MCP servers from npm over stdio when asked, and a count of every
// tool call each source receives (written to <data>/tool-calls.json), so a test can prove that a
// restore called nothing. Run with tsx; prints "SIGN_IN <url>" when ready.
import { createRequire } from "node:module";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  configSourceFactory,
  createHostServer,
  mcpChatHost,
  hostOptionsFromConfig,
  parseMcpConfig,
  ProcessLedger,
  type SourceFactory,
  type Source,
} from "@mcp-chat-host/host";
import { exampleApps } from "@mcp-chat-host/server/examples";
import { pino } from "pino";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    port: { type: "string" },
    servers: { type: "string" },
    /** A model spec (`openai:<id>`, `anthropic:<id>`, ...); keys and base URLs come from the environment. */
    model: { type: "string" },
    /** Seconds the model may send nothing before the reply fails as stalled (host default 60). */
    "model-stall-timeout": { type: "string" },
    /** Most card views a tab keeps live at once (the configuration's `host.liveViews`). */
    "live-views": { type: "string" },
    /** The folder the example apps read their built pages from (default apps/server/dist/views/). */
    views: { type: "string" },
  },
});
const data = resolve(values.data ?? "./e2e/artifacts/data");
const require = createRequire(import.meta.url);
const counts: Record<string, number> = {};
const countsFile = join(data, "tool-calls.json");

// Written to a side file and renamed into place, so a test reading the counts never sees half a file.
function writeCounts(): void {
  writeFileSync(`${countsFile}.next`, JSON.stringify(counts));
  renameSync(`${countsFile}.next`, countsFile);
}

function counted(factory: SourceFactory): SourceFactory {
  return {
    key: factory.key,
    kind: factory.kind,
    async open(): Promise<Source> {
      const source = await factory.open();
      const callTool = source.callTool.bind(source);
      source.callTool = async (name, args, options) => {
        counts[`${factory.key}/${name}`] = (counts[`${factory.key}/${name}`] ?? 0) + 1;
        writeCounts();
        return callTool(name, args, options);
      };
      return source;
    },
  };
}

function npmServer(name: string, pkg: string): { command: string; args: string[] } {
  // Not `require.resolve(`${pkg}/package.json`)`: these packages' `exports` do not list it.
  const manifestPath = (require.resolve.paths(pkg) ?? [])
    .map((folder) => join(folder, pkg, "package.json"))
    .find((candidate) => existsSync(candidate));
  if (manifestPath === undefined)
    throw new Error(`The package ${pkg} is not installed; run npm install.`);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  const args = [join(manifestPath, "..", bin ?? "dist/index.js"), "--stdio"];
  // server-debug appends every `debug-log` call to a file, /tmp/… by default: keep it in the data folder.
  if (name === "debug") args.push(`--log-file=${join(data, "debug-server.log")}`);
  return { command: process.execPath, args };
}

// As the CLI does: stdio servers are recorded, and a crashed run's leftovers reaped, before any starts.
await ProcessLedger.open(join(data, "processes"));
const wanted = (values.servers ?? "").split(",").filter(Boolean);
const known: Record<string, string> = {
  "basic-react": "@modelcontextprotocol/server-basic-react",
  "basic-vanillajs": "@modelcontextprotocol/server-basic-vanillajs",
  "system-monitor": "@modelcontextprotocol/server-system-monitor",
  debug: "@modelcontextprotocol/server-debug",
};
const config = parseMcpConfig({
  mcpServers: Object.fromEntries(
    wanted.map((name) => [name, npmServer(name, known[name] ?? name)]),
  ),
  ...(values["live-views"] === undefined
    ? {}
    : { host: { liveViews: Number(values["live-views"]) } }),
});
// The npm servers as counted factories (one process per session), so their calls are counted too.
const realServers = Object.values(config.servers).map((entry) =>
  counted(configSourceFactory(entry, { timeout: 60 })),
);
writeCounts();
const examples = exampleApps(
  values.views === undefined ? {} : { viewsDirectory: pathToFileURL(`${resolve(values.views)}/`) },
).map(counted);
const server = createHostServer({
  config,
  model: values.model ?? "offline",
  ...(values["model-stall-timeout"] === undefined
    ? {}
    : { modelStallTimeout: Number(values["model-stall-timeout"]) }),
  store: `sqlite:${join(data, "mcp-chat-host.db")}`,
  logger: pino({ level: process.env["LOG_LEVEL"] ?? "warn" }),
  webRoot: fileURLToPath(new URL("../../apps/web/dist/", import.meta.url)),
  sessionSecret: "e2e-session-secret-that-is-long-enough-0123456789",
  session(session) {
    const chat = session.chat({ title: "Chat" });
    mcpChatHost(chat, [...examples, ...realServers], hostOptionsFromConfig(config));
  },
});
await server.listen({ port: Number(values.port ?? 0), host: "127.0.0.1" });
console.log(`SIGN_IN ${server.urls.signIn}`);
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
