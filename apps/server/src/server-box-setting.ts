// The CLI's side of the stdio servers' boxes: what every box hides (the data folder, the config
// file, the log and the files secrets are read from), the start's check of the configuration
// against `--server-box required`, and the line the log gets about it.
import { resolve } from "node:path";
import {
  configureServerBox,
  ServerBoxUnavailableError,
  type McpConfig,
  type ServerBoxMode,
} from "@mcp-chat-host/host";
import type { Logger } from "pino";
import { CliError } from "./cli-error";

/** What the start knows that the boxes depend on. */
export interface ServerBoxStart {
  mode: ServerBoxMode;
  /** The data folder, absolute. */
  data: string;
  config: McpConfig | null;
  configFile: string | undefined;
  logFile: string | undefined;
  /** The environment the secrets were withdrawn into. */
  environment: Record<string, string | undefined>;
}

// `SESSION_SECRET_FILE`, `METRICS_TOKEN_FILE`, `OAUTH_CREDENTIAL_KEYS_FILE`, ...: files that hold a
// secret. CA files are not secrets, and a server may need the same system bundle.
const secretFileVariable = /_(SECRET|TOKEN|KEY|KEYS|PASSWORD)_FILE$/;

/**
 * Sets the box policy for every stdio server of this run, and logs what it is: boxed, or
 * unboxed and why (a warning in `auto` where bubblewrap is missing or cannot make a box).
 *
 * @throws CliError for `required` when no box can be made here, or when an entry sets
 *   `"box": false`.
 */
export function setUpServerBoxes(
  start: ServerBoxStart,
  logger: Pick<Logger, "info" | "warn">,
): void {
  if (start.mode === "required") {
    const unboxed = Object.values(start.config?.servers ?? {}).filter(
      (entry) => entry.kind === "stdio" && entry.box === false,
    );
    if (unboxed.length > 0) {
      const names = unboxed.map((entry) => `"${entry.name}"`).join(", ");
      throw new CliError(
        `--server-box required runs every stdio MCP server in a box, but ${names} ${unboxed.length === 1 ? "sets" : "set"} "box": false in the configuration. Remove "box": false, or start with --server-box auto.`,
      );
    }
  }
  const secretFiles = Object.entries(start.environment)
    .filter(([name, value]) => secretFileVariable.test(name) && value !== undefined && value !== "")
    .map(([, value]) => resolve(value as string));
  let status;
  try {
    status = configureServerBox({
      mode: start.mode,
      hiddenFolders: [start.data],
      hiddenFiles: [
        ...(start.configFile === undefined ? [] : [resolve(start.configFile)]),
        ...(start.logFile === undefined ? [] : [resolve(start.logFile)]),
        ...secretFiles,
      ],
    });
  } catch (error) {
    if (error instanceof ServerBoxUnavailableError) throw new CliError(error.message);
    throw error;
  }
  if (status.boxed) {
    logger.info(
      { serverBox: status.mode, bwrap: status.bwrap },
      "Each stdio MCP server runs in a box of its own (bubblewrap): it dies with this host and cannot see the data folder or the config.",
    );
  } else if (status.mode === "off") {
    logger.info(
      { serverBox: "off" },
      "Stdio MCP servers run unboxed (--server-box off): they can read what this user can.",
    );
  } else {
    logger.warn(
      { serverBox: status.mode },
      `Stdio MCP servers run UNBOXED: ${status.reason}. Unboxed, a server can read this host's data folder (its session key) and may outlive it. Start with --server-box required to refuse this.`,
    );
  }
}
