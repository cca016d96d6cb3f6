// Runs the command line as a child process, the way an operator does, for the tests in this
// folder: the published program (packages/mcp-chat-host/dist/cli.js, the bundle of `src/cli.ts`
// that `npm start` runs, built by `turbo run build`) under plain node, to completion (`runCli`),
// or as a server until it printed its sign-in URL (`startCli`). Every wait is bounded.
import {
  type ChildProcess,
  type ChildProcessWithoutNullStreams,
  spawn,
  type StdioOptions,
} from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const serverRoot = fileURLToPath(new URL("../", import.meta.url));
/** The published program: the bundle `npm start` and `npx mcp-chat-host` run. */
export const programPath = fileURLToPath(
  new URL("../../../packages/mcp-chat-host/dist/cli.js", import.meta.url),
);

/** How a finished run ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `node packages/mcp-chat-host/dist/cli.js <args>` with exactly `env`.
 *
 * @param stdio - the child's standard streams (a test of a stalled log reader passes its own).
 * @throws when the program is not built (`npx turbo run build`).
 */
export function spawnProgram(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions = ["ignore", "pipe", "pipe"],
): ChildProcess {
  if (!existsSync(programPath)) {
    throw new Error(
      `The program is not built (${programPath} is missing): run \`npx turbo run build\` at the repository root.`,
    );
  }
  return spawn(process.execPath, [programPath, ...args], { cwd: serverRoot, env, stdio });
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawnProgram(args, env, ["pipe", "pipe", "pipe"]) as ChildProcessWithoutNullStreams;
}

/** The environment a child gets: PATH and HOME of this one, plus `extra`. */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? "",
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Runs the command line to its end.
 *
 * @param timeoutMs - the child is killed after this long (the test then fails on its output).
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = childEnvironment(),
  timeoutMs = 30_000,
): Promise<CliRun> {
  const child = spawnCli(args, env);
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A CLI server that printed its sign-in URL. */
export interface RunningCli {
  pid: number;
  signIn: string;
  /** Everything it wrote so far, stdout then stderr. */
  output(): string;
  /** Stops it (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

/** The one-time sign-in URL the command line prints when it is ready (token mode). */
const signInPattern = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/;

/**
 * Starts the command line as a server and waits until it printed its sign-in URL.
 *
 * @param ready - what the ready output matches; its first group is returned as `signIn` (by
 *   default the one-time sign-in URL).
 * @throws when it exits first or prints nothing within `timeoutMs`.
 */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
  ready: RegExp = signInPattern,
): Promise<RunningCli> {
  const child = spawnCli(args, env);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The CLI printed no sign-in URL within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const signIn = ready.exec(stdout)?.[1];
      if (signIn === undefined) return;
      clearTimeout(timer);
      resolve({ pid: child.pid ?? 0, signIn, output: () => `${stdout}\n${stderr}`, stop });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`The CLI exited (${code}) before it was ready:\n${stdout}\n${stderr}`));
    });
  });
}
