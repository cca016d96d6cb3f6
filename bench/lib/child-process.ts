// Starts a Node child process for a benchmark, waits for the line that says it is ready, and stops
// it for sure (SIGTERM, then SIGKILL), so no run leaves a server behind.
import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { errorMessage } from "@mcp-chat-host/protocol";

/** A running child and what it printed. */
export interface RunningChild {
  child: ChildProcess;
  pid: number;
  /** `performance.now()` just before the process was spawned. */
  spawnedAt: number;
  /** The match of the ready pattern in its output. */
  ready: RegExpExecArray;
  /** Everything it printed so far (stdout and stderr, interleaved). */
  output(): string;
  /** Stops it: SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link startNodeChild}. */
export interface StartNodeChildOptions {
  /** Arguments after the Node executable (`--import tsx script.ts ...`, or `-e <code>`). */
  args: string[];
  cwd: string;
  /** Printed once the child is ready; the match is returned. */
  readyPattern: RegExp;
  /** Give up (and kill the child) after this long, in ms. */
  timeoutMs: number;
  /** Changes to this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Open an IPC channel (`child.send` / `process.send`). */
  ipc?: boolean;
}

function childEnvironment(changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete environment[name];
    else environment[name] = value;
  }
  return environment;
}

/** Output kept per child: enough for an error message, bounded so a chatty child can't grow it. */
const MAX_OUTPUT_CHARS = 64_000;

/**
 * Spawns `node <args>` and waits for `readyPattern` in its output.
 *
 * @returns the running child.
 * @throws {Error} when it exits first or is not ready within `timeoutMs` (its output is in the
 *   message; it is killed).
 */
export async function startNodeChild(options: StartNodeChildOptions): Promise<RunningChild> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: childEnvironment(options.env ?? {}),
    stdio: options.ipc === true ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT_CHARS);
  };
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const stop = async (graceMs = 5_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`The child was not ready within ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    const onData = (chunk: Buffer) => {
      append(chunk);
      const match = options.readyPattern.exec(output);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`The child exited (${code ?? signal}) before it was ready:\n${output}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      // Keep collecting output for error messages later on.
      child.stdout?.on("data", append);
      child.stderr?.on("data", append);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  }).catch(async (error: unknown) => {
    await stop(1_000);
    throw error;
  });
  if (child.pid === undefined) throw new Error("The child has no process id.");
  return { child, pid: child.pid, spawnedAt, ready, output: () => output, stop };
}

/**
 * Resolves once `url` answers 200, polling every `intervalMs`.
 *
 * @returns `performance.now()` when it first answered.
 * @throws {Error} when it has not answered 200 within `timeoutMs`.
 */
export async function waitForOk(
  url: string,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<number> {
  const deadline = performance.now() + options.timeoutMs;
  let last = "no answer yet";
  while (performance.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
      last = `status ${response.status}`;
    } catch (error) {
      last = errorMessage(error);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 5));
  }
  throw new Error(`${url} did not answer 200 within ${options.timeoutMs} ms (${last}).`);
}
