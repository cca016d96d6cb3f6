import { parseArgs } from "node:util";

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
  /** Who is who: the one-time token (default), or a header set by an authenticating proxy. */
  auth: { mode: "token" } | { mode: "trusted-header"; header: string; proxies: string[] };
  help: boolean;
}

/** The `--help` text. */
export const usage = `mcp-chat-host: a chat host for MCP Apps

Usage: npm start -- [options]
       npm start -- audit [options]   print the audit of the apps' tool calls (audit --help)

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
  --no-examples          do not offer the built-in example apps
  --web-root <dir>       serve the built web app from <dir> (default: apps/web/dist)
  -h, --help             show this text

Environment: MODEL, ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_COMPATIBLE_API_KEY, LOG_LEVEL,
MCP_CHAT_HOST_CONFIG (same as --config). Keys and other secrets (*_API_KEY, *_TOKEN, *_SECRET,
*_PASSWORD, ...) are read once at start and removed from the server's environment.`;

/** A command line that cannot be used; the message says what to change. */
export class CliError extends Error {
  override readonly name = "CliError";
}

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
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  }
  const port = values.port === undefined ? 8787 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
  }
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
  return {
    auth: header === undefined ? { mode: "token" } : { mode: "trusted-header", header, proxies },
    config: values.config ?? env["MCP_CHAT_HOST_CONFIG"],
    port,
    host: values.host ?? "127.0.0.1",
    model: values.model,
    data: values.data ?? "./data",
    examples: values["no-examples"] !== true,
    publicOrigin: values["public-origin"],
    webRoot: values["web-root"],
    help: values.help === true,
  };
}
