// Walking and killing one stdio server's process tree, from the process table alone (no memory of
// earlier samples beyond what the caller passes in `known`): the server, its session and process
// group, known members and every descendant. A pid is signalled only while its start time still
// matches, so a reused pid is never hit. Linux only; elsewhere there is no /proc to walk.
import {
  isRunning,
  listProcesses,
  processTableAvailable,
  readProcessStat,
  type ProcessIdentity,
  type ProcessStat,
} from "./process-table";

/** Options of {@link findProcessTree} and {@link killProcessTree}. */
export interface ProcessTreeOptions {
  /**
   * Processes seen in the tree before (with start times): each one still running, and its
   * descendants, belong to it even once orphaned (a `setsid` child whose server has exited).
   */
  known?: readonly ProcessIdentity[] | undefined;
  /**
   * Follow the server's session and process group even when the server itself is gone. Only
   * its parent may say so, and only just after the server exited: later, a new process given
   * the same pid could lead a session or group of that id.
   */
  ownGroup?: boolean | undefined;
}

// Rounds of "find, then stop" before the kill: a stopped process cannot fork, so each round can
// only find children forked before the previous round's stop; a few rounds reach a fixed point.
const stopRounds = 8;

/**
 * The processes of a server's tree, read from the process table: the server (while it is still
 * the identified process), every process of its session and of its process group (while the
 * server runs, or with `ownGroup`), every known member still running, and every descendant of
 * those. The host itself is never part of it.
 *
 * @param root - the server.
 * @param options - known members; whether the session and group may be followed.
 * @param table - the process table (read afresh by default).
 * @returns the live processes of the tree; empty where there is no /proc.
 */
export function findProcessTree(
  root: ProcessIdentity,
  options: ProcessTreeOptions = {},
  table: readonly ProcessStat[] = listProcesses(),
): ProcessStat[] {
  const children = new Map<number, ProcessStat[]>();
  for (const entry of table) {
    const siblings = children.get(entry.parentPid);
    if (siblings === undefined) children.set(entry.parentPid, [entry]);
    else siblings.push(entry);
  }
  const rootRuns = table.some(
    (entry) => entry.pid === root.pid && entry.startTime === root.startTime,
  );
  const followGroup = rootRuns || options.ownGroup === true;
  const known = new Set((options.known ?? []).map(identityKey));
  const found = new Map<number, ProcessStat>();
  const queue = table.filter(
    (entry) =>
      (followGroup && (entry.session === root.pid || entry.processGroup === root.pid)) ||
      (rootRuns && entry.pid === root.pid) ||
      known.has(identityKey(entry)),
  );
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (found.has(next.pid) || next.pid === process.pid || next.pid <= 1) continue;
    found.set(next.pid, next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return [...found.values()].filter((entry) => entry.state !== "Z" && entry.state !== "X");
}

/**
 * Stops every process of a tree (SIGSTOP), round after round until no new one appears, then
 * kills them (SIGKILL), synchronously. The server's process group is signalled too while the
 * server runs or with `ownGroup`; where there is no /proc only the group is killed.
 *
 * @param root - the server.
 * @param options - every known member (tracked ones included); whether the session and group
 *   may be followed.
 * @returns the processes signalled, the server included.
 */
export function stopAndKillTree(
  root: ProcessIdentity,
  options: ProcessTreeOptions = {},
): ProcessIdentity[] {
  const stopped = new Map<number, ProcessIdentity>();
  if (processTableAvailable()) {
    for (let round = 0; round < stopRounds; round += 1) {
      const fresh = findProcessTree(root, options).filter((entry) => !stopped.has(entry.pid));
      if (fresh.length === 0) break;
      for (const entry of fresh) {
        const identity = { pid: entry.pid, startTime: entry.startTime };
        if (signalProcess(identity, "SIGSTOP")) stopped.set(entry.pid, identity);
      }
    }
    for (const identity of stopped.values()) signalProcess(identity, "SIGKILL");
  }
  if (options.ownGroup === true || stopped.has(root.pid) || !processTableAvailable()) {
    signalGroup(root.pid);
  }
  if (!stopped.has(root.pid)) stopped.set(root.pid, root);
  return [...stopped.values()];
}

/**
 * Waits until none of the processes runs any more, checking the process table at growing
 * intervals (a killed process that is not our child sends no event), for at most `limitMs`.
 *
 * @param processes - what {@link killProcessTree} returned.
 * @param limitMs - the longest wait.
 * @returns true when all are gone, false when some still ran at the deadline.
 */
export async function waitUntilProcessesGone(
  processes: readonly ProcessIdentity[],
  limitMs: number,
): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  let pending = processes.filter(isRunning);
  for (let intervalMs = 2; pending.length > 0; intervalMs = Math.min(intervalMs * 2, 50)) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
    pending = pending.filter(isRunning);
  }
  return true;
}

/**
 * A process's pid and start time as one string, to compare identities.
 *
 * @param identity - the process.
 * @returns `pid@startTime` (`?` for an unknown start time).
 */
export function identityKey(identity: ProcessIdentity): string {
  return `${identity.pid}@${identity.startTime ?? "?"}`;
}

// Signals one process unless its pid now belongs to another one (the table was read a moment
// ago). Returns whether the signal was delivered.
function signalProcess(identity: ProcessIdentity, signal: NodeJS.Signals): boolean {
  if (identity.pid === process.pid || identity.pid <= 1) return false;
  const stat = readProcessStat(identity.pid);
  if (stat === undefined || stat.startTime !== identity.startTime) return false;
  try {
    process.kill(identity.pid, signal);
    return true;
  } catch {
    // ESRCH: it ended meanwhile. EPERM: it is no longer ours to signal (a setuid program).
    return false;
  }
}

function signalGroup(groupId: number): void {
  try {
    process.kill(-groupId, "SIGKILL");
  } catch {
    // ESRCH: nothing is left in the group.
  }
}
