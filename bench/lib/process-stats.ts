// What Linux says about a process: its resident memory and the CPU time it has used. Read from
// /proc, so a child's figures are its own and reading them costs the child nothing.
import { readFileSync } from "node:fs";

/**
 * The resident set size of a process (`VmRSS` of `/proc/<pid>/status`), in bytes.
 *
 * @throws {Error} when the process is gone or this is not Linux.
 */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`/proc/${pid}/status has no VmRSS line; is the process alive?`);
  return Number(match[1]) * 1024;
}

/** Bytes in mebibytes, for printing. */
export function mebibytes(bytes: number): number {
  return bytes / 2 ** 20;
}

/**
 * The CPU time a process has used so far (user + system, from `/proc/<pid>/stat`), in ms.
 * Clock ticks are taken as 100 per second, Linux's fixed `USER_HZ` on every common platform.
 *
 * @throws {Error} when the process is gone or this is not Linux.
 */
export function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may contain spaces and parentheses: fields are counted after the
  // last ")". utime and stime are fields 14 and 15, so 12th and 13th after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) {
    throw new Error(`/proc/${pid}/stat could not be read as CPU times.`);
  }
  return (user + system) * 10;
}

/**
 * The soft limit on open files of this process (`Max open files` in `/proc/self/limits`); child
 * processes inherit it.
 *
 * @returns the limit, Infinity for "unlimited", or null when it can't be read.
 */
export function openFilesLimit(): number | null {
  try {
    const limits = readFileSync("/proc/self/limits", "utf8");
    const match = /^Max open files\s+(\S+)/m.exec(limits);
    if (!match?.[1]) return null;
    return match[1] === "unlimited" ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}
