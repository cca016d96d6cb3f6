// Starts and stops the e2e host (serve.ts) as a child process, and reads its tool-call counts.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A running host. */
export interface RunningHost {
  /** The one-time sign-in URL. */
  signIn: string;
  /** The host's origin. */
  origin: string;
  /** The data folder (SQLite file, counts). */
  data: string;
  /** Tool calls each `source/tool` received since this process started. */
  toolCalls(): Record<string, number>;
  /** Stops the host (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** A fresh data folder for one test. */
export function freshDataDirectory(): string {
  const base = join(root, "e2e", "artifacts");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, "data-"));
}

/**
 * Starts the host on a free port.
 *
 * @param options - the data folder (reuse one to restart on the same SQLite file) and real npm servers to add.
 */
export async function startHost(
  options: {
    data?: string;
    servers?: string[];
    port?: number;
    /** A model spec; default the offline model. */
    model?: string;
    /** Extra environment for the host (provider keys and base URLs of a stand-in). */
    env?: Record<string, string>;
    /** Seconds the model may send nothing before the reply fails as stalled (default 60). */
    modelStallTimeout?: number;
    /** Most card views a tab keeps live at once (`host.liveViews`; default the page's, 12). */
    liveViews?: number;
    /** The folder the example apps read their built pages from (default apps/server/dist/views/). */
    views?: string;
  } = {},
): Promise<RunningHost> {
  const data = options.data ?? freshDataDirectory();
  const args = [
    "--import",
    "tsx",
    join(root, "e2e", "support", "serve.ts"),
    "--data",
    data,
    "--port",
    String(options.port ?? 0),
  ];
  if (options.servers?.length) args.push("--servers", options.servers.join(","));
  if (options.model !== undefined) args.push("--model", options.model);
  if (options.modelStallTimeout !== undefined) {
    args.push("--model-stall-timeout", String(options.modelStallTimeout));
  }
  if (options.liveViews !== undefined) args.push("--live-views", String(options.liveViews));
  if (options.views !== undefined) args.push("--views", options.views);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const signIn = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The host did not start within 60 s:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /SIGN_IN (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The host exited (${code}) before it was ready:\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    signIn,
    origin: new URL(signIn).origin,
    data,
    toolCalls: () =>
      JSON.parse(readFileSync(join(data, "tool-calls.json"), "utf8")) as Record<string, number>,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
