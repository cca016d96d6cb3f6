// Waits on a started program (see `spawnProgram` in cli-child.ts) for the tests in this folder
// that watch its exit and its HTTP answers: every wait is bounded.
import type { ChildProcess } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { join } from "node:path";

/** Resolves with the exit code once the child exited, or null after `timeoutMs`. */
export function exitWithin(
  child: ChildProcess,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Polls `url` (bounded) until it answers with `status`. */
export async function waitForStatus(url: string, status: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === status) return response;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last}).`);
}

/** Resolves once `path` exists (a file a started program or its server writes), or rejects after `timeoutMs`. */
export function fileAppears(path: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(join(path, ".."));
    const done = (error?: Error) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => done(new Error(`${path} did not appear in ${timeoutMs} ms.`)),
      timeoutMs,
    );
    watcher.on("change", () => {
      if (existsSync(path)) done();
    });
    if (existsSync(path)) done();
  });
}
