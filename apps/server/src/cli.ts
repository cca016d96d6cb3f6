// The runnable host: `npm start` (see --help). Serves the web app, the example apps, the offline
// model by default and a SQLite file under ./data, and prints a one-time sign-in URL.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHostServer, loadMcpConfig, type McpConfig } from "@mcp-chat-host/host";
import { pino } from "pino";
import { CliError, parseCliOptions, usage } from "./cli-options";
import { assertExampleViewsBuilt, exampleApps } from "./examples/index";
import { defaultSessionSetup } from "./host-session-setup";
import { fileSandboxPorts } from "./sandbox-ports";
import { loadSessionKey } from "./session-key";

const webRoot = fileURLToPath(new URL("../../web/dist/", import.meta.url));

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    console.log(usage);
    return;
  }
  const logger = pino({
    level: process.env["LOG_LEVEL"] ?? "info",
    ...(process.stdout.isTTY
      ? { transport: { target: "pino-pretty", options: { colorize: true } } }
      : {}),
  });
  if (!existsSync(join(webRoot, "index.html"))) {
    throw new CliError(
      "The web app is not built. Run `npm run build` (or `npm start`, which builds first).",
    );
  }
  const config: McpConfig | null =
    options.config === undefined ? null : await loadMcpConfig(options.config);
  const examples = options.examples ? exampleApps() : [];
  if (options.examples) await assertExampleViewsBuilt();
  const data = resolve(options.data);
  const server = createHostServer({
    config,
    ...(options.model === undefined ? {} : { model: options.model }),
    store: `sqlite:${join(data, "mcp-chat-host.db")}`,
    session: defaultSessionSetup(config, examples),
    logger,
    webRoot,
    sessionSecret: loadSessionKey(data),
    sandboxPorts: fileSandboxPorts(data),
    auth: options.auth,
    ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
  });
  const { url } = await server.listen({ port: options.port, host: options.host });
  console.log(`\nmcp-chat-host is ready (model: ${server.modelName}).`);
  console.log(
    `Open this URL in your browser (it works once; restart or see the docs for a new one):\n\n  ${server.urls.signIn ?? url}\n`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof CliError ? error.message : error);
  process.exit(1);
});
