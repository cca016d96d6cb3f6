// The box each stdio MCP server runs in, on Linux with bubblewrap (`bwrap`): a PID namespace of
// its own that dies with the host (no server process outlives it, `setsid` or not), a /proc that
// shows only the box, a read-only view of the system with the person's home, the host's working
// directory and /tmp replaced by empty folders, and the host's data folder and configuration
// hidden. One policy per process, set once at start by whoever runs the host (the CLI), as the
// process ledger is: every stdio server any session starts from then on is boxed.
import { spawnSync } from "node:child_process";
import {
  boxArguments,
  boxBaseFlags,
  findProgram,
  type BoxHiding,
  type BoxRequest,
} from "./server-box-mounts";

/**
 * How stdio servers are boxed: `auto` boxes them when bubblewrap works here and runs them unboxed
 * (with a warning) otherwise; `required` refuses to run any unboxed; `off` never boxes.
 */
export type ServerBoxMode = "auto" | "required" | "off";

/** The modes, for option parsers. */
export const serverBoxModes: readonly ServerBoxMode[] = ["auto", "required", "off"];

/** What {@link configureServerBox} needs to know. */
export interface ServerBoxSettings {
  mode: ServerBoxMode;
  /** Folders no server may see (the data folder): each is an empty folder in every box. */
  hiddenFolders?: readonly string[];
  /** Files no server may see (the configuration, secrets): each reads as empty in every box. */
  hiddenFiles?: readonly string[];
  /** The bubblewrap program; default `bwrap` found on `PATH`. */
  bwrap?: string;
}

/** What {@link configureServerBox} decided. */
export type ServerBoxStatus =
  | { boxed: true; mode: ServerBoxMode; bwrap: string }
  | {
      boxed: false;
      mode: ServerBoxMode;
      /** Why servers run unboxed, as a sentence that says what to do (empty for `off`). */
      reason: string;
    };

/** The policy the stdio transport applies (set by {@link configureServerBox}). */
export interface ServerBoxPolicy extends BoxHiding {
  bwrap: string;
  /** Whether an entry's `box: false` is refused. */
  required: boolean;
}

/** `--server-box required` and no box can be made here: the host must not start. */
export class ServerBoxUnavailableError extends Error {
  /** Stable code. */
  readonly code = "server_box_unavailable";

  /** @param message - why no box can be made, and what to do. */
  constructor(message: string) {
    super(message);
    this.name = "ServerBoxUnavailableError";
  }
}

const installHint =
  "Install bubblewrap (Debian and Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap)";
const probeLimitMs = 10_000;

let policy: ServerBoxPolicy | undefined;

/**
 * Sets how every stdio server started from now on is boxed. For `auto` and `required`, checks
 * once that bubblewrap can make a box here (runs `bwrap … true`).
 *
 * @param settings - the mode and what every box hides.
 * @returns whether servers are boxed, and if not, why.
 * @throws ServerBoxUnavailableError for `required` when no box can be made here.
 */
export function configureServerBox(settings: ServerBoxSettings): ServerBoxStatus {
  policy = undefined;
  if (settings.mode === "off") return { boxed: false, mode: "off", reason: "" };
  const probe = probeBubblewrap(settings.bwrap);
  if (!probe.ok) {
    if (settings.mode === "required") {
      throw new ServerBoxUnavailableError(
        `--server-box required: stdio MCP servers cannot be boxed here: ${probe.reason}. Fix that, or start with --server-box auto to run them unboxed.`,
      );
    }
    return { boxed: false, mode: settings.mode, reason: probe.reason };
  }
  policy = {
    bwrap: probe.bwrap,
    required: settings.mode === "required",
    hiddenFolders: [...(settings.hiddenFolders ?? [])],
    hiddenFiles: [...(settings.hiddenFiles ?? [])],
  };
  return { boxed: true, mode: settings.mode, bwrap: probe.bwrap };
}

/** The policy in force, or undefined when servers run unboxed (the default). */
export function currentServerBox(): ServerBoxPolicy | undefined {
  return policy;
}

/**
 * The program and arguments that run one server in its box under `active`.
 *
 * @returns `bwrap` and its arguments, ending with the server's own command line.
 * @throws Error with code `ENOENT` when the command is not found (as spawn does); Error for a
 *   `box.read` or `box.write` path that does not exist.
 */
export function boxedCommand(
  active: ServerBoxPolicy,
  request: BoxRequest,
): { command: string; args: string[] } {
  return { command: active.bwrap, args: boxArguments(active, request) };
}

function probeBubblewrap(
  bwrap: string | undefined,
): { ok: true; bwrap: string } | { ok: false; reason: string } {
  if (process.platform !== "linux") {
    return { ok: false, reason: `boxes need Linux and bubblewrap; this is ${process.platform}` };
  }
  const program = bwrap ?? findProgram("bwrap", process.env["PATH"] ?? "", process.cwd());
  if (program === undefined) {
    return { ok: false, reason: `bubblewrap (bwrap) is not installed. ${installHint}` };
  }
  const result = spawnSync(
    program,
    [...boxBaseFlags, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"],
    { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: probeLimitMs },
  );
  if (result.error !== undefined) {
    return {
      ok: false,
      reason: `${program} could not be run (${result.error.message}). ${installHint}`,
    };
  }
  if (result.status !== 0) {
    const said = result.stderr.trim().split("\n").slice(-2).join(" ");
    return {
      ok: false,
      reason: `${program} could not make a box (${said === "" ? `exit code ${result.status}` : said}). Unprivileged user namespaces may be turned off: allow them (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap on Ubuntu 24.04 and later)`,
    };
  }
  return { ok: true, bwrap: program };
}
