// The program under test, started as an operator starts it: the published bundle
// (`node packages/mcp-chat-host/dist/cli.js`, built by `npx turbo run build`) with a config file
// and its flags, in a child process of its own. Everything a benchmark needs from it comes the
// way an operator gets it: the sign-in URL it prints (and `mcp-chat-host sign-in --data <dir>`
// for more), /healthz, /metrics with a token (METRICS_TOKEN), and /proc for its memory and CPU.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startNodeChild, type RunningChild } from "./child-process";
import { repositoryRoot } from "./paths";

/** The bundle `npm start` runs. */
export const programBundle = join(repositoryRoot, "packages", "mcp-chat-host", "dist", "cli.js");

/** The built web app the program serves. */
const webApp = join(repositoryRoot, "apps", "web", "dist", "index.html");

/** The header the benchmarks' clients name themselves with (`--trusted-header`). */
export const BENCH_USER_HEADER = "x-bench-user";

/** A prerequisite of a benchmark is missing. */
class ProgramSetupError extends Error {
  /** Stable code for scripts. */
  readonly code = "bench_setup";
  override readonly name = "ProgramSetupError";
}

/** Options of {@link startProgram}. */
export interface ProgramOptions {
  /** Its data folder (`--data`), made and removed by the caller. */
  data: string;
  /** The config file's content (`--config`): `mcpServers` and the `host` section. */
  config?: { mcpServers: Record<string, unknown>; host?: Record<string, unknown> };
  /** Offer the built-in example apps (default false: `--no-examples`). */
  examples?: boolean;
  /**
   * Take the user from {@link BENCH_USER_HEADER}, trusting loopback as the proxy
   * (`--trusted-header`, `--trusted-proxy 127.0.0.1`), instead of the one-time token.
   */
  headerUsers?: boolean;
  /** `--port` (default 0: a free one). */
  port?: number;
  /** `--database` (a `postgres://` URL); none: the SQLite file in the data folder. */
  database?: string;
  /** `--redis`. */
  redis?: string;
  /** `--node-id`. */
  nodeId?: string;
  /** `--public-origin` (a balancer's origin). */
  publicOrigin?: string;
  /** `SESSION_SECRET`: the key every node of a cluster shares; none: a key in the data folder. */
  sessionSecret?: string;
}

/** The program, running. */
export interface RunningProgram {
  /** The child (its pid, output, stop). */
  process: RunningChild;
  pid: number;
  /** The origin it printed: its own, or the public origin it was given. */
  origin: string;
  /** Its own origin (`http://127.0.0.1:<port>`), which its /metrics is read from. */
  ownOrigin: string;
  /** A new one-time sign-in URL (token mode): the printed one first, then `sign-in --data`. */
  signInUrl(): Promise<string>;
  /** Its `/metrics` page (Prometheus text), read with its token. */
  metrics(): Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s). */
  stop(graceMs?: number): Promise<void>;
}

const runFile = promisify(execFile);

/**
 * Checks that the bundle and the web app are built.
 *
 * @throws {ProgramSetupError} naming what to build.
 */
export function assertProgramBuilt(): void {
  if (!existsSync(programBundle) || !existsSync(webApp)) {
    throw new ProgramSetupError(
      "The program is not built (packages/mcp-chat-host/dist/cli.js or apps/web/dist is missing); run `npx turbo run build` first.",
    );
  }
}

/**
 * Starts the program with the offline model on 127.0.0.1 and waits for its ready lines.
 *
 * @returns the running program.
 * @throws {ProgramSetupError} when it is not built.
 * @throws {Error} when it exits or is not ready within 60 s (its output is in the message).
 */
export async function startProgram(options: ProgramOptions): Promise<RunningProgram> {
  assertProgramBuilt();
  const configFile = join(options.data, "bench-config.json");
  // Owner only, as the program wants every file of its data folder.
  writeFileSync(configFile, `${JSON.stringify(options.config ?? { mcpServers: {} }, null, 2)}\n`, {
    mode: 0o600,
  });
  const metricsToken = randomBytes(18).toString("base64url");
  const args = [
    programBundle,
    ...["--config", configFile, "--data", options.data, "--model", "offline"],
    ...["--port", String(options.port ?? 0), "--host", "127.0.0.1"],
    ...(options.examples === true ? [] : ["--no-examples"]),
    ...(options.headerUsers === true
      ? ["--trusted-header", BENCH_USER_HEADER, "--trusted-proxy", "127.0.0.1"]
      : []),
    ...(options.database === undefined ? [] : ["--database", options.database]),
    ...(options.redis === undefined ? [] : ["--redis", options.redis]),
    ...(options.nodeId === undefined ? [] : ["--node-id", options.nodeId]),
    ...(options.publicOrigin === undefined ? [] : ["--public-origin", options.publicOrigin]),
  ];
  const running = await startNodeChild({
    args,
    cwd: repositoryRoot,
    // Token mode prints the sign-in URL under its "is ready" line; header mode the origin.
    readyPattern:
      options.headerUsers === true
        ? /Open (http:\/\/\S+) through the authenticating proxy/
        : /is ready[^\n]*\n[\s\S]*?(http:\/\/\S+)/,
    timeoutMs: 60_000,
    // Only what the command line says: nothing of this shell's MODEL, config or cluster settings.
    env: {
      LOG_LEVEL: process.env["LOG_LEVEL"] ?? "warn",
      METRICS_TOKEN: metricsToken,
      SESSION_SECRET: options.sessionSecret,
      SESSION_SECRET_FILE: undefined,
      MODEL: undefined,
      MCP_CHAT_HOST_CONFIG: undefined,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      NODE_ID: undefined,
    },
  });
  const printed = running.ready[1] ?? "";
  const origin = new URL(printed).origin;
  // Behind a balancer the printed origin is the balancer's; the node's own is its port.
  const ownOrigin =
    options.port !== undefined && options.port > 0 ? `http://127.0.0.1:${options.port}` : origin;
  let firstSignIn: string | null = options.headerUsers === true ? null : printed;
  return {
    process: running,
    pid: running.pid,
    origin,
    ownOrigin,
    async signInUrl() {
      if (firstSignIn !== null) {
        const url = firstSignIn;
        firstSignIn = null;
        return url;
      }
      const { stdout } = await runFile(
        process.execPath,
        [programBundle, "sign-in", "--data", options.data],
        { cwd: repositoryRoot, timeout: 30_000 },
      );
      const url = /http:\/\/\S+/.exec(stdout)?.[0];
      if (url === undefined) throw new Error(`\`sign-in\` printed no URL: ${stdout}`);
      return url;
    },
    async metrics() {
      const response = await fetch(`${ownOrigin}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (response.status !== 200) {
        throw new Error(
          `The program's /metrics answered HTTP ${response.status} with METRICS_TOKEN set; a program without metrics cannot be counted.`,
        );
      }
      return text;
    },
    stop: (graceMs = 10_000) => running.stop(graceMs),
  };
}
