// On Linux a process's start-time environment stays readable in /proc/<pid>/environ to every
// process of the same OS user, whatever the process later does to `process.env` (the file shows
// the strings the kernel copied onto the stack at exec). Those strings are the process's own
// memory, though, and nothing refers to one after its variable was unset, so their values can be
// overwritten through /proc/self/mem. Done with care: the region is read back and compared with
// /proc/self/environ first, and only the value bytes of variables already removed are written.
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { errorMessage } from "@mcp-chat-host/protocol";

/** What {@link scrubStartEnvironment} did. */
export type ScrubResult = { done: true; scrubbed: string[] } | { done: false; reason: string };

/** env_start and env_end of /proc/self/stat (fields 50 and 51; see proc(5)). */
function environmentRegion(): { start: number; end: number } | null {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The command name (field 2) may hold spaces and parentheses; fields after it follow its `)`.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start <= 0 || end <= start) {
    return null;
  }
  return { start, end };
}

/**
 * Overwrites with zero bytes the values of `names` in this process's start-time environment (what
 * /proc/<pid>/environ shows), on Linux. Unset the variables first (see `withdrawSecrets`): the
 * strings are then referenced by nothing. Elsewhere, or when the kernel refuses, nothing is
 * changed and the reason is returned.
 *
 * @param names - variables already removed from `process.env`.
 * @param platform - the OS (tests pass another).
 * @returns which variables were overwritten, or why none was.
 */
export function scrubStartEnvironment(
  names: readonly string[],
  platform: NodeJS.Platform = process.platform,
): ScrubResult {
  if (platform !== "linux") return { done: false, reason: `not available on ${platform}` };
  if (names.length === 0) return { done: true, scrubbed: [] };
  const still = names.filter((name) => process.env[name] !== undefined);
  if (still.length > 0) return { done: false, reason: `still set: ${still.join(", ")}` };
  let descriptor: number | undefined;
  try {
    const region = environmentRegion();
    if (region === null)
      return { done: false, reason: "/proc/self/stat has no environment region" };
    const environ = readFileSync("/proc/self/environ");
    descriptor = openSync("/proc/self/mem", "r+");
    const memory = Buffer.alloc(region.end - region.start);
    readSync(descriptor, memory, 0, memory.length, region.start);
    if (!memory.equals(environ)) {
      return { done: false, reason: "the environment region does not match /proc/self/environ" };
    }
    const scrubbed = new Set<string>();
    let entryStart = 0;
    while (entryStart < memory.length) {
      let entryEnd = memory.indexOf(0, entryStart);
      if (entryEnd === -1) entryEnd = memory.length;
      const equals = memory.indexOf(0x3d, entryStart); // "="
      if (equals !== -1 && equals < entryEnd) {
        const name = memory.toString("utf8", entryStart, equals);
        const valueStart = equals + 1;
        if (names.includes(name) && entryEnd > valueStart) {
          const zeros = Buffer.alloc(entryEnd - valueStart);
          writeSync(descriptor, zeros, 0, zeros.length, region.start + valueStart);
          scrubbed.add(name);
        }
      }
      entryStart = entryEnd + 1;
    }
    return { done: true, scrubbed: [...scrubbed].sort() };
  } catch (error) {
    return { done: false, reason: errorMessage(error) };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
