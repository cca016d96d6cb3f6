// Starts the published program (`packages/mcp-chat-host/dist/cli.js`, what `npm start` and
// `npx mcp-chat-host` run) with plain `node`, for the tests in this folder that need what ships.
import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The bundle's path. */
export const bundlePath = fileURLToPath(
  new URL("../../../packages/mcp-chat-host/dist/cli.js", import.meta.url),
);

/**
 * Spawns `node dist/cli.js <args>` with exactly `env`.
 *
 * @throws when the bundle is not built (`npx turbo run build`).
 */
export function spawnBundle(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions = ["ignore", "pipe", "pipe"],
): ChildProcess {
  if (!existsSync(bundlePath)) {
    throw new Error("The bundle is not built: run `npx turbo run build` first.");
  }
  return spawn(process.execPath, [bundlePath, ...args], { env, stdio });
}

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
