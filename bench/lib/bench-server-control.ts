// Starts the bench server (bench-server.ts) as a child process and asks it, over IPC, for its
// memory after a full GC and for its event loop delay.
import { join } from "node:path";
import { askChild, startNodeChild, type RunningChild } from "./child-process";
import { benchDirectory, repositoryRoot } from "./paths";
import { residentBytes } from "./process-stats";

/**
 * Starts `bench-server.ts` with `--expose-gc` on a data folder and waits until it listens.
 *
 * @returns the running child; `ready[1]` is the server's origin.
 * @throws {Error} when it does not start within 60 s (its output is in the message).
 */
export function startBenchServer(data: string): Promise<RunningChild> {
  return startNodeChild({
    args: [
      "--expose-gc",
      "--import",
      "tsx",
      join(benchDirectory, "lib", "bench-server.ts"),
      "--data",
      data,
    ],
    cwd: repositoryRoot,
    readyPattern: /BENCH_SERVER_READY (\S+)/,
    timeoutMs: 60_000,
    ipc: true,
    env: { LOG_LEVEL: "warn" },
  });
}

/**
 * Sends the bench server an IPC request and resolves with its answer. The server answers on its
 * event loop, so an overloaded server answers late: each answer carries its request's id, so a
 * late one is never taken for the answer to a later request.
 *
 * @throws {Error} when there is no answer within `timeoutMs`.
 */
function askServer<T>(
  server: RunningChild,
  type: "gc" | "loop-delay",
  timeoutMs: number,
): Promise<T> {
  return askChild<T>(server, type, timeoutMs, "The bench server");
}

/**
 * Asks the server for a full GC and reads its memory (RSS from /proc, heap over IPC).
 *
 * @throws {Error} when the server does not answer within 60 s.
 */
export async function serverMemory(
  server: RunningChild,
): Promise<{ rss: number; heapUsed: number }> {
  const { heapUsed } = await askServer<{ heapUsed: number }>(server, "gc", 60_000);
  return { rss: residentBytes(server.pid), heapUsed };
}

/**
 * The server's event loop delay since the last reading, in ms.
 *
 * @returns null when the server does not answer within 30 s (it is too far behind: its backlog
 *   of calls comes first); the next reading then covers both periods.
 */
export async function serverLoopDelay(
  server: RunningChild,
): Promise<{ p99: number; max: number } | null> {
  try {
    return await askServer(server, "loop-delay", 30_000);
  } catch {
    return null;
  }
}
