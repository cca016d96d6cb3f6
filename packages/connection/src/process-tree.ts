// The process trees of stdio servers. Each server leads a process group and session of its own,
// but a process it starts may leave both (`setsid`, as browsers launched by Playwright do), so a
// tree is found by walking the process table (parents, plus the server's session and group) and
// killed as a whole. Live trees are remembered so that they are killed when the host exits,
// whatever path it takes, sampled every few seconds (a child that left the group stays known
// after its server exits), and reported to a recorder (the process ledger) as they change.
//
// Linux only: elsewhere there is no /proc to walk, and only the process group is killed. Limit: a
// child that leaves the group and loses its server before any sample saw it (within seconds of
// its start) cannot be traced.
import {
  identifyProcess,
  listProcesses,
  processTableAvailable,
  type ProcessIdentity,
} from "./process-table";
import {
  findProcessTree,
  identityKey,
  stopAndKillTree,
  type ProcessTreeOptions,
} from "./process-tree-walk";

export type { ProcessIdentity } from "./process-table";

/** What a recorder learns about each tree: the server's name and command line, for the log. */
export interface ProcessLabel {
  /** The configured server name. */
  name: string;
  /** The command and its arguments, as started. */
  command: string;
}

/** Told of every tree this process starts and of its end (a port the process ledger fills). */
export interface ProcessRecorder {
  /** A server was started; `root` has its start time where the platform gives one. */
  started(root: ProcessIdentity, label: ProcessLabel): void;
  /** The processes last seen in the server's tree changed (the server itself not included). */
  membersChanged(root: ProcessIdentity, members: readonly ProcessIdentity[]): void;
  /** The server's tree is gone (or was killed at host exit). */
  ended(root: ProcessIdentity): void;
}

interface TrackedTree {
  root: ProcessIdentity;
  members: ProcessIdentity[];
}

const liveTrees = new Map<number, TrackedTree>();
let recorder: ProcessRecorder | undefined;
let exitHookInstalled = false;
let sampler: NodeJS.Timeout | undefined;
// How often the live trees are read, so that a child that later loses its parent (a `setsid`
// browser whose server exited) is still known as part of the tree.
const sampleIntervalMs = 2000;

/**
 * Sets the recorder told of every tree started, sampled and ended from now on (one per process).
 *
 * @param next - the recorder, or undefined to stop recording.
 */
export function setProcessRecorder(next: ProcessRecorder | undefined): void {
  recorder = next;
}

/**
 * Remembers a server's tree so it is killed at host exit and sampled every few seconds, tells
 * the recorder, and installs the exit hook once.
 *
 * @param root - the server (a leader spawned with `detached: true`).
 * @param label - its name and command line.
 */
export function trackProcessTree(root: ProcessIdentity, label: ProcessLabel): void {
  liveTrees.set(root.pid, { root, members: [] });
  installExitHook();
  if (sampler === undefined && processTableAvailable()) {
    sampler = setInterval(() => sampleProcessTrees(), sampleIntervalMs);
    sampler.unref();
  }
  recorder?.started(root, label);
}

/**
 * Forgets a tree that is gone and tells the recorder.
 *
 * @param root - the server.
 */
export function forgetProcessTree(root: ProcessIdentity): void {
  if (!liveTrees.delete(root.pid)) return;
  if (liveTrees.size === 0 && sampler !== undefined) {
    clearInterval(sampler);
    sampler = undefined;
  }
  recorder?.ended(root);
}

/**
 * Reads the process table once and updates what is known of each live tree (or of one), telling
 * the recorder of changes. Runs every few seconds on its own; call it when a tree is about to
 * change shape (before asking a server to exit).
 *
 * @param rootPid - only this server's tree; every tree by default.
 */
export function sampleProcessTrees(rootPid?: number): void {
  if (!processTableAvailable()) return;
  const trees = [...liveTrees.values()].filter(
    (tree) => rootPid === undefined || tree.root.pid === rootPid,
  );
  if (trees.length === 0) return;
  const table = listProcesses();
  for (const tree of trees) {
    const members = findProcessTree(tree.root, { known: tree.members, ownGroup: true }, table)
      .filter((entry) => entry.pid !== tree.root.pid)
      .map((entry) => ({ pid: entry.pid, startTime: entry.startTime }));
    const before = tree.members.map(identityKey).sort().join(",");
    tree.members = members;
    if (members.map(identityKey).sort().join(",") !== before) {
      recorder?.membersChanged(tree.root, members);
    }
  }
}

/**
 * Kills a server's whole tree with SIGKILL, synchronously (safe in an `exit` handler). On Linux
 * the tree is walked (see {@link findProcessTree}; a tracked tree adds the members sampled
 * before) and every process found is first stopped (SIGSTOP), round after round until no new
 * one appears, so nothing forks away while it is killed. The server's process group is
 * signalled too while the server runs or with `ownGroup`. Elsewhere only the group is killed.
 * Processes that are already gone are not an error; a pid now held by another process is never
 * signalled.
 *
 * @param root - the server.
 * @param options - known members; whether the session and group may be followed.
 * @returns the processes signalled, to wait for with {@link waitUntilProcessesGone}.
 */
export function killProcessTree(
  root: ProcessIdentity,
  options: ProcessTreeOptions = {},
): ProcessIdentity[] {
  const tracked = liveTrees.get(root.pid);
  const known = [
    ...(options.known ?? []),
    ...(tracked !== undefined && tracked.root.startTime === root.startTime ? tracked.members : []),
  ];
  return stopAndKillTree(root, { ...options, known });
}

/**
 * Kills every tree still remembered, synchronously (safe in an `exit` handler), and tells the
 * recorder they ended.
 *
 * @returns how many trees were signalled.
 */
function killAllProcessTrees(): number {
  let signalled = 0;
  for (const { root } of [...liveTrees.values()]) {
    killProcessTree(root, { ownGroup: true });
    forgetProcessTree(root);
    signalled += 1;
  }
  return signalled;
}

/**
 * The servers whose trees are still remembered (started and not yet gone).
 *
 * @returns their pids.
 */
export function liveProcessTrees(): readonly number[] {
  return [...liveTrees.keys()];
}

/**
 * The identity of a just-started server, with its start time where the platform gives one.
 *
 * @param pid - the server's pid.
 * @returns its identity.
 */
export function identifyServer(pid: number): ProcessIdentity {
  return identifyProcess(pid) ?? { pid };
}

const forwardedSignals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `exit` covers process.exit() and a drained event loop; handlers must be synchronous.
  process.on("exit", killAllProcessTrees);
  for (const signal of forwardedSignals) {
    const onSignal = (): void => {
      // A host with its own handler owns shutdown (it may close connections gracefully), and its
      // process.exit() reaches the exit hook above. Alone, keep Node's default: kill the trees,
      // then re-raise the signal so the process still terminates the way it would have.
      if (process.listenerCount(signal) > 1) return;
      killAllProcessTrees();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
