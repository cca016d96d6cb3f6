// A server process of a test that never outlives the test process: stopped on a normal exit, and
// killed by a small watchdog when the test process dies without running its exit handlers
// (kill -9, a crash of the runner).
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createServer } from "node:net";

/** A started child and how to end it. */
export interface TiedProcess {
  /** The server process. */
  readonly child: ChildProcess;
  /** Resolves when the server process has exited. */
  readonly exited: Promise<void>;
  /**
   * Ends the server: `signal` first, SIGKILL after `graceMs`; resolves once it has exited.
   *
   * @param signal - the first signal (default SIGTERM).
   * @param graceMs - how long the server may take to exit before it is killed (default 10,000).
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // On a normal exit, synchronously: no server of this process is left running.
  process.once("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
}

/**
 * Starts `command` with a watchdog tied to this process: a shell whose standard input is a pipe
 * from this process; when this process dies the pipe closes, the shell's `read` returns and it
 * kills the server. Neither the server nor the watchdog keeps this process's event loop alive
 * beyond what the caller holds (the server's output pipes, if any).
 *
 * @param command - the program.
 * @param args - its arguments.
 * @param options - spawn options (stdio, env, cwd, uid/gid).
 * @returns the running process.
 */
export function spawnTied(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): TiedProcess {
  installExitHook();
  const child = spawn(command, args, options);
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  let watchdog: ChildProcess | undefined;
  if (child.pid !== undefined) {
    watchdog = spawn("sh", ["-c", `read _ignored; kill -9 ${child.pid} 2>/dev/null`], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    watchdog.unref();
    (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
    watchdog.on("error", () => {});
  }
  void exited.then(() => {
    running.delete(child);
    // The server is gone: end the watchdog without letting it signal a pid that may be reused.
    watchdog?.kill("SIGKILL");
  });
  return {
    child,
    exited,
    async stop(signal = "SIGTERM", graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      await exited;
    },
  };
}

/** Ports this process handed out, so two servers started one after the other never get the same. */
const handedOut = new Set<number>();

/**
 * A TCP port that was free on 127.0.0.1 a moment ago (the system picks it), never one this
 * process handed out before.
 *
 * @returns the port number.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await systemPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error("No free port on 127.0.0.1 that was not handed out already.");
}

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Waits until `text` appears in what the child writes (stdout and stderr), bounded.
 *
 * @param child - the process.
 * @param pattern - what marks readiness.
 * @param timeoutMs - the bound.
 * @param what - names the server in the error.
 */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(output);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) done();
    };
    const onExit = (code: number | null) =>
      done(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    const timer = setTimeout(
      () => done(new Error(`${what} was not ready within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}
