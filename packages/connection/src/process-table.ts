// Reads Linux's process table (/proc): each process's parent, group, session, state and start
// time. The start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) tells a process
// from a later one that was given the same pid. Elsewhere nothing is read and callers fall back.
import { readdirSync, readFileSync } from "node:fs";

/** A process as /proc/<pid>/stat describes it. */
export interface ProcessStat {
  pid: number;
  /** The parent's pid (1, or a subreaper, once the parent has died). */
  parentPid: number;
  processGroup: number;
  session: number;
  /** One letter: R, S, D, T (stopped), Z (zombie), X (dead), … */
  state: string;
  /** Clock ticks since boot when the process started. */
  startTime: number;
}

/** Who a process is: its pid and, where the platform says, when it started. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat; undefined where there is no /proc. */
  startTime?: number | undefined;
}

let tableAvailable: boolean | undefined;

/**
 * Whether this platform has a readable /proc process table (Linux). Checked once.
 *
 * @returns true on Linux with /proc mounted.
 */
export function processTableAvailable(): boolean {
  tableAvailable ??= process.platform === "linux" && readProcessStat(process.pid) !== undefined;
  return tableAvailable;
}

/**
 * Parses the text of /proc/<pid>/stat. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so the fields are counted from the last `)`.
 *
 * @param text - the file's content.
 * @returns the fields, or undefined for text that is not a stat line.
 */
export function parseProcessStat(text: string): ProcessStat | undefined {
  const open = text.indexOf(" (");
  const close = text.lastIndexOf(")");
  if (open < 1 || close < open) return undefined;
  const pid = Number(text.slice(0, open));
  // After ")": field 3 (state) is index 0, so field N is index N - 3.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(" ");
  const state = fields[0];
  const numbers = [fields[1], fields[2], fields[3], fields[19]].map(Number);
  const [parentPid, processGroup, session, startTime] = numbers;
  if (
    state === undefined ||
    state === "" ||
    !Number.isInteger(pid) ||
    parentPid === undefined ||
    processGroup === undefined ||
    session === undefined ||
    startTime === undefined ||
    !numbers.every(Number.isInteger)
  ) {
    return undefined;
  }
  return { pid, parentPid, processGroup, session, state, startTime };
}

/**
 * Reads one process's stat line.
 *
 * @returns the process, or undefined when it does not exist (or there is no /proc).
 */
export function readProcessStat(pid: number): ProcessStat | undefined {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Reads every process of the table. Processes that end while it is read are left out.
 *
 * @returns the processes; empty where there is no /proc.
 */
export function listProcesses(): ProcessStat[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const processes: ProcessStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcessStat(Number(name));
    if (stat !== undefined) processes.push(stat);
  }
  return processes;
}

/**
 * The identity of a running process.
 *
 * @returns its pid and start time, or undefined when it does not exist or there is no /proc.
 */
export function identifyProcess(pid: number): { pid: number; startTime: number } | undefined {
  const stat = readProcessStat(pid);
  return stat === undefined ? undefined : { pid, startTime: stat.startTime };
}

/**
 * Whether the process is still the one identified: it exists, is not a zombie, and (when the
 * identity has a start time) started at that time. A pid given to a later process is not it.
 * Without /proc, only whether some process has the pid can be told.
 *
 * @returns true while the very process runs.
 */
export function isRunning(identity: ProcessIdentity): boolean {
  const stat = readProcessStat(identity.pid);
  if (stat === undefined) {
    if (identity.startTime !== undefined || process.platform === "linux") return false;
    return signalExists(identity.pid);
  }
  if (stat.state === "Z" || stat.state === "X") return false;
  return identity.startTime === undefined || stat.startTime === identity.startTime;
}

/**
 * The kernel's id of the current boot (Linux), so that records from before a restart of the
 * machine are known for what they are.
 *
 * @returns the id, or undefined where there is none.
 */
export function currentBootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}

function signalExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
