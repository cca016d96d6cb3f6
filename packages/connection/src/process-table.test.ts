// Parsing /proc/<pid>/stat, and reading this very process from the real table (Linux).
import { describe, expect, it } from "vitest";
import {
  identifyProcess,
  isRunning,
  parseProcessStat,
  processTableAvailable,
  readProcessStat,
} from "./process-table";

// Fields 3 to 22 of a stat line, with the given ppid, group, session and start time.
function statLine(command: string, state: string, startTime: number): string {
  const rest = [state, 1, 4200, 4200, 0, -1, 4194560, 100, 0, 0, 0, 5, 3, 0, 0, 20, 0, 1, 0];
  return `4242 (${command}) ${[...rest, startTime, 1000, 200].join(" ")}\n`;
}

describe("parseProcessStat", () => {
  it("counts fields from the last parenthesis, whatever the command name holds", () => {
    expect(parseProcessStat(statLine("node) S 9 (x", "S", 987654))).toEqual({
      pid: 4242,
      parentPid: 1,
      processGroup: 4200,
      session: 4200,
      state: "S",
      startTime: 987654,
    });
  });

  it("refuses text that is not a stat line", () => {
    expect(parseProcessStat("")).toBeUndefined();
    expect(parseProcessStat("4242 node S 1")).toBeUndefined();
    expect(parseProcessStat("4242 (node) S 1 2")).toBeUndefined();
  });
});

describe.runIf(process.platform === "linux")("the live process table", () => {
  it("identifies this process, and tells it from a later one with the same pid", () => {
    expect(processTableAvailable()).toBe(true);
    const self = identifyProcess(process.pid);
    expect(self?.startTime).toBe(readProcessStat(process.pid)?.startTime);
    expect(isRunning({ pid: process.pid, startTime: self?.startTime })).toBe(true);
    expect(isRunning({ pid: process.pid, startTime: (self?.startTime ?? 0) + 1 })).toBe(false);
  });
});
