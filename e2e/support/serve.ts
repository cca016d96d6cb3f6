// The host as the end-to-end tests run it: the same setup as `npm start` (example apps, offline
// model, a SQLite file), plus real MCP servers from npm over stdio when asked, and a count of every
// tool call each source receives (written to <data>/tool-calls.json), so a test can prove that a
// restore called nothing. Run with tsx; prints "SIGN_IN <url>" when ready.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createHostServer, mcpChatHost, hostOptionsFromConfig, parseMcpConfig, type SourceFactory, type Source } from "@mcp-chat-host/host";
import { exampleApps } from "@mcp-chat-host/server/examples";
import { pino } from "pino";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    port: { type: "string" },
    servers: { type: "string" },
  },
});
const data = resolve(values.data ?? "./e2e/artifacts/data");
const require = createRequire(import.meta.url);
const counts: Record<string, number> = {};
const countsFile = join(data, "tool-calls.json");

function counted(factory: SourceFactory): SourceFactory {
  return {
    key: factory.key,
    kind: factory.kind,
    async open(): Promise<Source> {
      const source = await factory.open();
      const callTool = source.callTool.bind(source);
      source.callTool = async (name, args, options) => {
        counts[`${factory.key}/${name}`] = (counts[`${factory.key}/${name}`] ?? 0) + 1;
        writeFileSync(countsFile, JSON.stringify(counts));
        return callTool(name, args, options);
      };
      return source;
    },
  };
}

function npmServer(pkg: string): { command: string; args: string[] } {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  return { command: process.execPath, args: [join(manifestPath, "..", bin ?? "dist/index.js"), "--stdio"] };
}

const wanted = (values.servers ?? "").split(",").filter(Boolean);
const known: Record<string, string> = {
  "basic-react": "@modelcontextprotocol/server-basic-react",
  "basic-vanillajs": "@modelcontextprotocol/server-basic-vanillajs",
  "system-monitor": "@modelcontextprotocol/server-system-monitor",
  debug: "@modelcontextprotocol/server-debug",
};
const config = parseMcpConfig({
  mcpServers: Object.fromEntries(wanted.map((name) => [name, npmServer(known[name] ?? name)])),
});
writeFileSync(countsFile, "{}");
const examples = exampleApps().map(counted);
const server = createHostServer({
  config,
  model: "offline",
  store: `sqlite:${join(data, "mcp-chat-host.db")}`,
  logger: pino({ level: process.env["LOG_LEVEL"] ?? "warn" }),
  webRoot: fileURLToPath(new URL("../../apps/web/dist/", import.meta.url)),
  sessionSecret: "e2e-session-secret-that-is-long-enough-0123456789",
  session(session) {
    const chat = session.chat({ title: "Chat" });
    mcpChatHost(chat, [...examples, ...wanted], hostOptionsFromConfig(config));
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
