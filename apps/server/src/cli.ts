// The runnable host: `npm start` (see --help). Serves the web app, the example apps, the offline
// model by default and a SQLite file under ./data, and prints a one-time sign-in URL.
import { accessSync, constants, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  ClusterStartError,
  createHostServer,
  isStoreError,
  loadMcpConfig,
  MetricsListenerError,
  CredentialSealError,
  ProcessLedger,
  type McpConfig,
} from "@mcp-chat-host/host";
import { pino } from "pino";
import { runAuditCommand } from "./audit-command";
import { oidcClientSecretFrom } from "./oidc-settings";
import { CliError, parseCliOptions, usage } from "./cli-options";
import { prepareDataFolder } from "./data-folder";
import { metricsTokenFrom, SHORT_METRICS_TOKEN_CHARS } from "./metrics-token";
import { builtViewsFolder, builtWebFolder } from "./asset-folders";
import { assertExampleViewsBuilt, exampleApps } from "./examples/index";
import { defaultSessionSetup } from "./host-session-setup";
import { logTargets, NonBlockingLogDestination } from "./log-destination";
import { fileSandboxPorts } from "./sandbox-ports";
import { withdrawSecrets } from "./secret-environment";
import { setUpServerBoxes } from "./server-box-setting";
import { scrubStartEnvironment } from "./start-environment";
import { sessionKeyFrom } from "./session-key";
import { oauthCredentialKeysFrom } from "./oauth-credential-keys";
import { runSignInCommand } from "./sign-in-command";
import { openSignInControl } from "./sign-in-control";

const builtWebRoot = fileURLToPath(builtWebFolder);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === "audit") {
    await runAuditCommand(argv.slice(1));
    return;
  }
  if (argv[0] === "sign-in") {
    await runSignInCommand(argv.slice(1));
    return;
  }
  // First, before any server process is started: the keys stay in `environment` (memory) only,
  // and on Linux their values are wiped from what /proc/<pid>/environ shows, too.
  const { environment, withdrawn } = withdrawSecrets(process.env);
  const scrub = scrubStartEnvironment(withdrawn);
  const options = parseCliOptions(argv, environment);
  if (options.help) {
    console.log(usage);
    return;
  }
  const webRoot = options.webRoot === undefined ? builtWebRoot : resolve(options.webRoot);
  const logLevel = environment["LOG_LEVEL"] ?? "info";
  // A terminal gets pretty lines; a pipe or a file gets JSON through a destination that never
  // blocks the event loop (a log reader that stops reading must not stop SIGTERM).
  const destination =
    process.stdout.isTTY && options.logFile === undefined
      ? null
      : new NonBlockingLogDestination(logTargets(options.logFile));
  const logger =
    destination === null
      ? pino({
          level: logLevel,
          transport: { target: "pino-pretty", options: { colorize: true } },
        })
      : pino({ level: logLevel }, destination);
  // The last lines get up to a second to reach their reader; a stalled one never holds the exit.
  const exit = (code: number) => {
    void (destination?.flushed(1_000) ?? Promise.resolve()).then(() => process.exit(code));
  };
  if (withdrawn.length > 0) {
    logger.info(
      {
        variables: withdrawn,
        startEnvironment: scrub.done ? "wiped" : `left as it was (${scrub.reason})`,
      },
      "Read the secrets from the environment and removed them from it.",
    );
  }
  if (!existsSync(join(webRoot, "index.html"))) {
    throw new CliError(
      "The web app is not built. Run `npm run build` (or `npm start`, which builds first).",
    );
  }
  const config: McpConfig | null =
    options.config === undefined ? null : await loadMcpConfig(options.config, { env: environment });
  const viewsFolder =
    options.exampleViews === undefined
      ? builtViewsFolder
      : pathToFileURL(`${resolve(options.exampleViews)}/`);
  const examples = options.examples ? exampleApps({ viewsDirectory: viewsFolder }) : [];
  if (options.examples) await assertExampleViewsBuilt(viewsFolder);
  const data = resolve(options.data);
  // Before anything in it is read or written: the folder and its files are the owner's only.
  prepareDataFolder(data, logger);
  // Before any MCP server starts: reap the servers a crashed run left behind (pid and start time
  // must both match), then record every server this run starts.
  await ProcessLedger.open(join(data, "processes"), {
    log: (line) => logger.info(line),
    warn: (line) => logger.warn(line),
  });
  // Also before any MCP server starts: from here on each runs in a box of its own.
  setUpServerBoxes(
    {
      mode: options.serverBox,
      data,
      config,
      // The loaded file's absolute path (`~` expanded), else what was given.
      configFile: config?.source ?? options.config,
      logFile: options.logFile,
      environment,
    },
    logger,
  );
  const metricsToken = metricsTokenFrom(environment);
  if (metricsToken !== undefined && metricsToken.length < SHORT_METRICS_TOKEN_CHARS) {
    logger.warn(
      `METRICS_TOKEN is ${metricsToken.length} characters long; use a long random one (openssl rand -hex 32).`,
    );
  }
  const clientSecret = options.auth.mode === "oidc" ? oidcClientSecretFrom(environment) : undefined;
  const credentialKeys = oauthCredentialKeysFrom(environment, data);
  if (credentialKeys.fromFile && options.database !== undefined) {
    logger.warn(
      "OAUTH_CREDENTIAL_KEYS is not set: this node seals people's sign-ins to remote MCP servers with the key in its own data folder, which other nodes on the same database cannot open. Give every node the same OAUTH_CREDENTIAL_KEYS (see docs/remote-servers.md).",
    );
  }
  const server = createHostServer({
    config,
    env: environment,
    ...(options.model === undefined ? {} : { model: options.model }),
    store: options.database ?? `sqlite:${join(data, "mcp-chat-host.db")}`,
    ...(options.redis === undefined ? {} : { redisUrl: options.redis }),
    ...(options.nodeId === undefined ? {} : { nodeId: options.nodeId }),
    drainTimeout: options.drainTimeout,
    ...(options.modelStallTimeout === undefined
      ? {}
      : { modelStallTimeout: options.modelStallTimeout }),
    ...(options.databaseCaFile === undefined
      ? {}
      : { databaseCaFile: readableFile(options.databaseCaFile, "--database-ca-file") }),
    ...(options.redisCaFile === undefined
      ? {}
      : { redisCaFile: readableFile(options.redisCaFile, "--redis-ca-file") }),
    ...(options.sandboxOriginTemplate === undefined
      ? {}
      : {
          sandboxOriginTemplate: options.sandboxOriginTemplate,
          sandboxListenerPort: options.sandboxPort,
        }),
    session: defaultSessionSetup(config, examples, logger),
    logger,
    webRoot,
    sessionSecret: sessionKeyFrom(environment, data),
    oauthCredentialKeys: credentialKeys.keys,
    sandboxPorts: fileSandboxPorts(data),
    auth: options.auth.mode === "oidc" ? { ...options.auth, clientSecret } : options.auth,
    ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
    metrics: {
      token: metricsToken,
      ...(options.metricsPort === undefined
        ? {}
        : { port: options.metricsPort, host: options.metricsHost }),
    },
  });
  const { url } = await server.listen({ port: options.port, host: options.host });
  // `mcp-chat-host sign-in --data <dir>` asks for a new sign-in URL here (owner only).
  const control = await openSignInControl(data, {
    auth: options.auth,
    signInUrl: () => server.signInUrl(),
    logger,
  });
  const dataArgument = /\s/.test(data) ? JSON.stringify(data) : data;
  const another =
    control === null
      ? "restart the server for another"
      : `\`npx mcp-chat-host sign-in --data ${dataArgument}\` prints another`;
  // Before the ready line, so whoever waits for that line has read this one too.
  if (server.metricsUrl !== undefined)
    console.log(`\nMetrics for your scraper: ${server.metricsUrl}`);
  console.log(`\nmcp-chat-host is ready (model: ${server.modelName}).`);
  console.log(
    options.auth.mode === "token"
      ? `Open this URL in your browser (it works once; ${another}):\n\n  ${server.urls.signIn ?? url}\n`
      : options.auth.mode === "oidc"
        ? `Open ${url} and sign in with ${options.auth.issuer}.\n`
        : `Open ${url} through the authenticating proxy.\n`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    void control?.close();
    // SIGTERM (a deployment stopping this node) drains: no new tabs, running replies may finish
    // for --drain-timeout seconds, the rest are marked interrupted. Ctrl-C stops at once.
    const graceSeconds = signal === "SIGTERM" ? options.drainTimeout : 0;
    const forced = setTimeout(() => process.exit(1), (graceSeconds + 10) * 1_000);
    forced.unref();
    (signal === "SIGTERM" ? server.drain(graceSeconds) : server.close()).then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/** The absolute path of a file the server must read, or a sentence saying it can't. */
function readableFile(path: string, option: string): string {
  const absolute = resolve(path);
  try {
    accessSync(absolute, constants.R_OK);
  } catch {
    throw new CliError(`${option}: the file ${JSON.stringify(path)} cannot be read.`);
  }
  return absolute;
}

main().catch((error: unknown) => {
  // A data folder that can't be made private (another user's) is a sentence, not a stack.
  console.error(
    error instanceof CliError ||
      isStoreError(error) ||
      error instanceof ClusterStartError ||
      error instanceof MetricsListenerError ||
      error instanceof CredentialSealError
      ? error.message
      : error,
  );
  process.exit(1);
});
