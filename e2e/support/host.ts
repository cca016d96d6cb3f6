// Starts and stops the program as the specs use it: the published bundle
// (packages/mcp-chat-host/dist/cli.js) run with plain node, with a config file written for the
// test (its MCP servers, `host.liveViews`), a data folder (SQLite), and its metrics turned on, so
// the tool calls a spec counts are the ones the program itself reports.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnTied, type TiedProcess } from "@mcp-chat-host/testing";
import { serverCommand } from "./mcp-servers";
import { scrapeToolCalls } from "./tool-call-metrics";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The published program: what `npm start` runs and the package ships. */
export const programPath = join(root, "packages", "mcp-chat-host", "dist", "cli.js");

/**
 * Throws unless the program is built: the specs run what ships, never the sources.
 *
 * @throws with the command that builds it.
 */
export function assertProgramBuilt(): void {
  if (!existsSync(programPath)) {
    throw new Error(
      `The program is not built (${programPath} is missing): run \`npx turbo run build\` at the repository root.`,
    );
  }
}

/** The cookie key of every host a spec starts (a restart on the same data keeps sessions). */
const sessionSecret = "e2e-session-secret-that-is-long-enough-0123456789";

/** How long the program may take to print its sign-in URL. */
const startTimeoutMs = 60_000;

/** A running host. */
export interface RunningHost {
  /** The one-time sign-in URL. */
  signIn: string;
  /** The host's origin. */
  origin: string;
  /** The data folder (SQLite file, config file). */
  data: string;
  /** Tool calls each `source/tool` received since this process started (its metrics). */
  toolCalls(): Promise<Record<string, number>>;
  /** What the program printed so far (the last 64 KiB). */
  output(): string;
  /** Stops the host at once (SIGINT, no drain) and waits for it to exit. */
  stop(): Promise<void>;
}

/** What a spec may ask of the host. */
export interface HostOptions {
  /** The data folder; reuse one to restart on the same SQLite file. Default a fresh one. */
  data?: string;
  /** MCP servers to add: npm names (`basic-vanillajs`, `debug`, ...) or `./fixtures/<app>`. */
  servers?: string[];
  /** The port; reuse one to restart on the same origin. Default a free one. */
  port?: number;
  /** A model spec; default the offline model. */
  model?: string;
  /** Extra environment for the host (provider keys and base URLs of a stand-in). */
  env?: Record<string, string>;
  /** Seconds the model may send nothing before the reply fails as stalled (default 60). */
  modelStallTimeout?: number;
  /** Most card views a tab keeps live at once (`host.liveViews`; default the page's, 12). */
  liveViews?: number;
  /** The folder the example apps read their built pages from (default the program's own). */
  views?: string;
  /** Remote MCP servers to add, by name: their entries as the config file has them (`url`, `oauth`). */
  remote?: Record<string, Record<string, unknown>>;
  /** More settings of the config file's `host` section (`connectors`, …). */
  hostSettings?: Record<string, unknown>;
}

/** A fresh data folder for one test. */
export function freshDataDirectory(): string {
  const base = join(root, "e2e", "artifacts");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, "data-"));
}

/**
 * Writes the config file of one run into the data folder.
 *
 * @returns its path.
 */
function writeConfig(data: string, options: HostOptions): string {
  const config = {
    mcpServers: {
      ...Object.fromEntries(
        (options.servers ?? []).map((name) => [name, serverCommand(name, data)]),
      ),
      ...options.remote,
    },
    ...(options.liveViews === undefined && options.hostSettings === undefined
      ? {}
      : {
          host: {
            ...(options.liveViews === undefined ? {} : { liveViews: options.liveViews }),
            ...options.hostSettings,
          },
        }),
  };
  const file = join(data, "e2e-config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** The program's arguments for `options`. */
function programArguments(data: string, options: HostOptions): string[] {
  const args = [
    programPath,
    "--config",
    writeConfig(data, options),
    "--data",
    data,
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port ?? 0),
  ];
  if (options.model !== undefined) args.push("--model", options.model);
  if (options.modelStallTimeout !== undefined) {
    args.push("--model-stall-timeout", String(options.modelStallTimeout));
  }
  if (options.views !== undefined) args.push("--example-views", options.views);
  return args;
}

/** The one-time sign-in URL the program prints when it is ready. */
const signInPattern = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/;

/** Waits until the program printed its sign-in URL; rejects when it exits first or takes too long. */
function waitForSignIn(tied: TiedProcess, output: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The host printed no sign-in URL within 60 s:\n${output()}`)),
      startTimeoutMs,
    );
    const check = () => {
      const match = signInPattern.exec(output());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    tied.child.stdout?.on("data", check);
    tied.child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The host exited (${code ?? signal}) before it was ready:\n${output()}`));
    });
  });
}

/**
 * Starts the program on 127.0.0.1.
 *
 * @param options - data folder, port, MCP servers, model, environment and the settings of a run.
 * @returns the running host; call `stop()` when done.
 */
export async function startHost(options: HostOptions = {}): Promise<RunningHost> {
  assertProgramBuilt();
  const data = options.data ?? freshDataDirectory();
  const metricsToken = randomBytes(24).toString("base64url");
  const tied = spawnTied(process.execPath, programArguments(data, options), {
    cwd: root,
    env: {
      ...process.env,
      // Quiet unless the person running the suite asks for more (LOG_LEVEL=debug).
      LOG_LEVEL: process.env["LOG_LEVEL"] ?? "warn",
      SESSION_SECRET: sessionSecret,
      METRICS_TOKEN: metricsToken,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString("utf8")).slice(-65_536);
  };
  // Registered before the wait's own listener, so the wait sees the chunk that completes the URL.
  tied.child.stdout?.on("data", keep);
  tied.child.stderr?.on("data", keep);
  const output = () => printed;
  let signIn: string;
  try {
    signIn = await waitForSignIn(tied, output);
  } catch (error) {
    await tied.stop("SIGKILL");
    throw error;
  }
  const origin = new URL(signIn).origin;
  return {
    signIn,
    origin,
    data,
    toolCalls: () => scrapeToolCalls(origin, metricsToken),
    output,
    // SIGINT closes at once (SIGTERM would drain): a spec stops the host between its steps.
    stop: () => tied.stop("SIGINT", 15_000),
  };
}
