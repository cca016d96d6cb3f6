// Process groups of stdio servers. Each server runs as the leader of its own process group, so
// killing the group (negative pid) also ends every process the server started. Live groups are
// remembered so that they are killed when the host process exits, whatever path it takes.

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a process group so it is killed at host exit, and installs the exit hook once.
 *
 * @param groupId - the group id (the pid of a leader spawned with `detached: true`).
 */
export function trackProcessGroup(groupId: number): void {
  liveGroups.add(groupId);
  installExitHook();
}

/**
 * Sends SIGKILL to every process of a group and forgets it. A group that is already gone is
 * not an error.
 *
 * @param groupId - the group id.
 * @returns true when the signal reached at least one process.
 */
export function killProcessGroup(groupId: number): boolean {
  liveGroups.delete(groupId);
  try {
    process.kill(-groupId, "SIGKILL");
    return true;
  } catch (error) {
    // ESRCH: nothing left in the group. EPERM cannot happen for our own children.
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Kills every process group still remembered. Runs synchronously, so it is safe in an `exit`
 * handler.
 *
 * @returns how many groups were signalled.
 */
export function killAllProcessGroups(): number {
  let signalled = 0;
  for (const groupId of [...liveGroups]) {
    if (killProcessGroup(groupId)) signalled += 1;
  }
  return signalled;
}

/**
 * The process groups still remembered (started and not yet killed).
 *
 * @returns their ids.
 */
export function liveProcessGroups(): readonly number[] {
  return [...liveGroups];
}

const forwardedSignals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `exit` covers process.exit() and a drained event loop; handlers must be synchronous.
  process.on("exit", killAllProcessGroups);
  for (const signal of forwardedSignals) {
    const onSignal = (): void => {
      // A host with its own handler owns shutdown (it may close connections gracefully), and its
      // process.exit() reaches the exit hook above. Alone, keep Node's default: kill the groups,
      // then re-raise the signal so the process still terminates the way it would have.
      if (process.listenerCount(signal) > 1) return;
      killAllProcessGroups();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
