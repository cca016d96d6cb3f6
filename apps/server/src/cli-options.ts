import { serverBoxModes, type ServerBoxMode } from "@mcp-chat-host/host";
import { errorMessage } from "@mcp-chat-host/protocol";
import { parseArgs } from "node:util";
import { CliError } from "./cli-error";
import { oidcAuthFrom, type OidcCliAuth } from "./oidc-settings";

export { CliError } from "./cli-error";

/** What the command line asked for. */
export interface CliOptions {
  config: string | undefined;
  port: number;
  host: string;
  model: string | undefined;
  data: string;
  examples: boolean;
  publicOrigin: string | undefined;
  /** The built web app's folder; undefined: the repository's `apps/web/dist`. */
  webRoot: string | undefined;
  /**
   * Who is who: the one-time token (default), a header set by an authenticating proxy, or the
   * organisation's OpenID provider (`--oidc-issuer`; its client secret is read at start).
   */
  auth:
    { mode: "token" } | { mode: "trusted-header"; header: string; proxies: string[] } | OidcCliAuth;
  /** A `postgres://` URL (`--database`, else `$DATABASE_URL`): the Postgres store; none: SQLite. */
  database: string | undefined;
  /** Redis for what crosses nodes (`--redis`, else `$REDIS_URL`); none: one node. */
  redis: string | undefined;
  /** This node's id (`--node-id`, else `$NODE_ID`); none: generated and logged. */
  nodeId: string | undefined;
  /** How long SIGTERM lets running replies finish, in seconds (`--drain-timeout`, default 30). */
  drainTimeout: number;
  /** Deployment sandbox origins (`--sandbox-origin-template https://{source}.sandbox.example.com`). */
  sandboxOriginTemplate: string | undefined;
  /** With the template: the port this node serves the sandbox on (`--sandbox-port`). */
  sandboxPort: number | undefined;
  /** A listener of its own for `GET /metrics`, without a token (`--metrics-port`); none: no listener. */
  metricsPort: number | undefined;
  /** That listener's address (`--metrics-host`, default 127.0.0.1). */
  metricsHost: string;
  /**
   * Seconds the model may send nothing before the reply fails as stalled
   * (`--model-stall-timeout`, else `$MODEL_STALL_TIMEOUT`); undefined: the host's default, 60.
   */
  modelStallTimeout: number | undefined;
  /** The folder the example apps read their built pages from (`--example-views`); undefined: the built ones. */
  exampleViews: string | undefined;
  /** Where the log goes (`--log-file`, else `$LOG_FILE`); none: stdout, then stderr if it breaks. */
  logFile: string | undefined;
  /** The Postgres server's CA file (`--database-ca-file`, else `$PGSSLROOTCERT`). */
  databaseCaFile: string | undefined;
  /** Redis's CA file for a `rediss://` URL (`--redis-ca-file`, else `$REDIS_TLS_CA_FILE`). */
  redisCaFile: string | undefined;
  /**
   * How stdio MCP servers are boxed (`--server-box`, default `auto`): with bubblewrap when it
   * works here, `required` refuses to start without it, `off` never boxes.
   */
  serverBox: ServerBoxMode;
  help: boolean;
}

/** The `--help` text. */
export const usage = `mcp-chat-host: a chat host for MCP Apps

Usage: npm start -- [options]
       npm start -- audit [options]   print the audit of the apps' tool calls (audit --help)
       npm run sign-in -- [--data <dir>]   print a new sign-in URL of the running server
       (installed: mcp-chat-host [options], mcp-chat-host audit|sign-in [options])

Options:
  --config <file>        mcpServers JSON (Claude Desktop / mcptools format, plus a "host" section)
  --port <n>             port to listen on (default 8787; 0 picks a free one)
  --host <address>       address to bind (default 127.0.0.1)
  --model <spec>         offline | anthropic:<id> | openai:<id> | openai-compatible:<baseURL>#<id>
                         (default: $MODEL, else offline)
  --data <dir>           where the SQLite file and the session key live (default ./data)
  --public-origin <url>  the origin people use behind a TLS proxy (https://chat.example.com)
  --trusted-header <h>   take the user from header <h> set by an authenticating proxy
                         (instead of the one-time token); needs --trusted-proxy
  --trusted-proxy <addr> address or CIDR of that proxy (repeat for several)
  --oidc-issuer <url>    sign people in with this OpenID provider (instead of the one-time
                         token); register <public origin>/auth/callback as its redirect URI
                         and <public origin>/auth/signed-out as its post-logout redirect URI
  --oidc-client-id <id>  the host's client id at the provider (default: $OIDC_CLIENT_ID);
                         its secret from OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE
                         (none: a public client, PKCE only)
  --oidc-scopes <list>   scopes to ask for (default "openid email profile")
  --oidc-allowed-domains <a.com,b.org>
                         only people whose verified email is at one of these domains
  --oidc-allowed-groups <g1,g2>
                         only people whose "groups" claim names one of these
  --oidc-sign-in-timeout <s>
                         how long a started sign-in stays valid (default 600)
  --database <url>       postgres://… : keep the data in PostgreSQL (several nodes share it)
                         (default: $DATABASE_URL, else the SQLite file in --data)
  --redis <url>          redis://… : deliver updates across nodes (default: $REDIS_URL)
  --database-ca-file <f> PEM file of the CA that signed PostgreSQL's certificate (default:
                         $PGSSLROOTCERT); TLS with sslmode=verify-full unless the URL sets one
  --redis-ca-file <f>    PEM file of the CA that signed Redis's certificate, with a rediss://
                         URL (default: $REDIS_TLS_CA_FILE); a password goes in the URL:
                         redis://user:password@host:port
  --node-id <id>         this node's name in a cluster (default: $NODE_ID, else generated)
  --drain-timeout <s>    on SIGTERM, how long running replies may finish (default 30)
  --sandbox-origin-template <t>
                         app views at https://{source}.sandbox.example.com (a deployment)
  --sandbox-port <n>     with the template: the port this node serves those names on
  --metrics-port <n>     serve Prometheus metrics at /metrics on this port, without a token:
                         bind it where only your scraper reaches (see also METRICS_TOKEN)
  --metrics-host <addr>  the address of that listener (default 127.0.0.1)
  --log-file <path>      append the JSON log to <path> (default: $LOG_FILE, else stdout;
                         stderr once stdout or the file fails; lines a slow reader can't take
                         are dropped and counted, never waited for)
  --server-box <mode>    auto | required | off (default auto): run each stdio MCP server in a
                         box of its own (bubblewrap, Linux) that dies with the host and cannot
                         see the data folder or the config; auto runs them unboxed, with a
                         warning, where bubblewrap is missing; required refuses to start then
  --no-examples          do not offer the built-in example apps
  --web-root <dir>       serve the built web app from <dir> (default: apps/web/dist)
  --model-stall-timeout <s>
                         a reply fails as stalled after the model sent nothing for <s> seconds
                         (default: $MODEL_STALL_TIMEOUT, else 60)
  --example-views <dir>  the example apps read their built pages (<name>.html) from <dir>
                         (default: the views built with the program)
  -h, --help             show this text

Environment: MODEL, ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_COMPATIBLE_API_KEY, LOG_LEVEL,
MCP_CHAT_HOST_CONFIG (same as --config), DATABASE_URL, REDIS_URL, NODE_ID, MODEL_STALL_TIMEOUT, SESSION_SECRET or
SESSION_SECRET_FILE (the cookie key every node shares; default a key in --data), OIDC_CLIENT_ID,
OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE. Keys and other secrets (*_API_KEY, *_TOKEN, *_SECRET,
*_PASSWORD, ...) are read once at start and removed from the server's environment.

Metrics: METRICS_TOKEN (or METRICS_TOKEN_FILE, a file holding it) serves /metrics on --port to
requests with "Authorization: Bearer <token>"; without it (and without --metrics-port) /metrics is 404.

Traces: OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) exports OpenTelemetry
traces over OTLP/HTTP; OTEL_EXPORTER_OTLP_HEADERS (a secret), OTEL_SERVICE_NAME and
OTEL_RESOURCE_ATTRIBUTES as the SDK reads them (docs/deployment.md, "Traces").`;

/**
 * Reads the command line.
 *
 * @param argv - the arguments after the script name.
 * @param env - the environment (for `MCP_CHAT_HOST_CONFIG`).
 * @throws {CliError} for unknown options or a bad port.
 */
export function parseCliOptions(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        model: { type: "string" },
        data: { type: "string" },
        "public-origin": { type: "string" },
        "trusted-header": { type: "string" },
        "trusted-proxy": { type: "string", multiple: true },
        "no-examples": { type: "boolean" },
        "web-root": { type: "string" },
        database: { type: "string" },
        redis: { type: "string" },
        "node-id": { type: "string" },
        "drain-timeout": { type: "string" },
        "sandbox-origin-template": { type: "string" },
        "sandbox-port": { type: "string" },
        "metrics-port": { type: "string" },
        "metrics-host": { type: "string" },
        "model-stall-timeout": { type: "string" },
        "example-views": { type: "string" },
        "log-file": { type: "string" },
        "database-ca-file": { type: "string" },
        "redis-ca-file": { type: "string" },
        "oidc-issuer": { type: "string" },
        "oidc-client-id": { type: "string" },
        "oidc-scopes": { type: "string" },
        "oidc-allowed-domains": { type: "string" },
        "oidc-allowed-groups": { type: "string" },
        "oidc-sign-in-timeout": { type: "string" },
        "server-box": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${errorMessage(error)}\n\n${usage}`);
  }
  const port = portOption("--port", values.port) ?? 8787;

  const proxies = values["trusted-proxy"] ?? [];
  const header = values["trusted-header"];
  if (header !== undefined && proxies.length === 0) {
    throw new CliError(
      "--trusted-header needs at least one --trusted-proxy (the proxy's address).",
    );
  }
  if (header === undefined && proxies.length > 0) {
    throw new CliError("--trusted-proxy goes with --trusted-header (the header the proxy sets).");
  }
  const database = values.database ?? (env["DATABASE_URL"] || undefined);
  if (database !== undefined && !/^postgres(ql)?:\/\/./i.test(database)) {
    throw new CliError(
      `--database (or DATABASE_URL) must be a postgres:// URL; "${database.split("@").pop() ?? ""}" is not one.`,
    );
  }
  const drainTimeout = values["drain-timeout"] === undefined ? 30 : Number(values["drain-timeout"]);
  if (!Number.isFinite(drainTimeout) || drainTimeout < 0) {
    throw new CliError(
      `--drain-timeout must be a number of seconds, 0 or more, not "${values["drain-timeout"]}".`,
    );
  }
  const sandboxPort = portOption("--sandbox-port", values["sandbox-port"]);

  if (sandboxPort !== undefined && values["sandbox-origin-template"] === undefined) {
    throw new CliError("--sandbox-port goes with --sandbox-origin-template (the names it serves).");
  }
  const metricsPort = portOption("--metrics-port", values["metrics-port"]);

  if (values["metrics-host"] !== undefined && metricsPort === undefined) {
    throw new CliError("--metrics-host goes with --metrics-port (the port the metrics are on).");
  }
  const stallSetting = values["model-stall-timeout"] ?? (env["MODEL_STALL_TIMEOUT"] || undefined);
  const modelStallTimeout = stallSetting === undefined ? undefined : Number(stallSetting);
  if (
    modelStallTimeout !== undefined &&
    !(Number.isFinite(modelStallTimeout) && modelStallTimeout > 0)
  ) {
    throw new CliError(
      `--model-stall-timeout (or MODEL_STALL_TIMEOUT) must be a number of seconds above 0, not "${stallSetting}".`,
    );
  }
  const serverBox = values["server-box"] ?? "auto";
  if (!isServerBoxMode(serverBox)) {
    throw new CliError(
      `--server-box must be ${serverBoxModes.join(", ").replace(/, (?=[^,]*$)/, " or ")}, not "${serverBox}".`,
    );
  }
  const oidc = oidcAuthFrom(values, env);
  if (oidc !== undefined && header !== undefined) {
    throw new CliError(
      "--oidc-issuer and --trusted-header are two ways of signing people in; choose one.",
    );
  }
  const host = values.host ?? "127.0.0.1";
  if (oidc !== undefined && values["public-origin"] === undefined && !isLoopbackName(host)) {
    throw new CliError(
      `--oidc-issuer on ${host} needs --public-origin (the address people use, e.g. https://chat.example.com): the provider sends them back to <public origin>/auth/callback.`,
    );
  }
  return {
    metricsPort,
    metricsHost: values["metrics-host"] ?? "127.0.0.1",
    database,
    redis: values.redis ?? (env["REDIS_URL"] || undefined),
    nodeId: values["node-id"] ?? (env["NODE_ID"] || undefined),
    drainTimeout,
    sandboxOriginTemplate: values["sandbox-origin-template"],
    sandboxPort,
    logFile: values["log-file"] ?? (env["LOG_FILE"] || undefined),
    databaseCaFile: values["database-ca-file"] ?? (env["PGSSLROOTCERT"] || undefined),
    redisCaFile: values["redis-ca-file"] ?? (env["REDIS_TLS_CA_FILE"] || undefined),
    auth:
      oidc ??
      (header === undefined ? { mode: "token" } : { mode: "trusted-header", header, proxies }),
    config: values.config ?? env["MCP_CHAT_HOST_CONFIG"],
    port,
    host,
    model: values.model,
    data: values.data ?? "./data",
    examples: values["no-examples"] !== true,
    publicOrigin: values["public-origin"],
    webRoot: values["web-root"],
    modelStallTimeout,
    exampleViews: values["example-views"],
    serverBox,
    help: values.help === true,
  };
}

function isServerBoxMode(value: string): value is ServerBoxMode {
  return (serverBoxModes as readonly string[]).includes(value);
}

/** Whether a bind address is this machine's loopback, where the printed origin is the real one. */
function isLoopbackName(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

/**
 * A port given on the command line.
 *
 * @param flag - the option's name, for the sentence.
 * @param value - what was given; undefined: not given.
 * @returns the port, or undefined when not given.
 * @throws {CliError} for anything but a whole number from 0 to 65535.
 */
function portOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError(`${flag} must be a whole number from 0 to 65535, not "${value}".`);
  }
  return port;
}
