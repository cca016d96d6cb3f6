import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatFigure, formatTable, machineInfo, writeReport } from "./report";

describe("formatTable", () => {
  it("prints each row with median, p25, p75, p99, n and extras, then ratios and notes", () => {
    const text = formatTable([
      {
        name: "demo/10",
        unit: "ms",
        rows: [
          {
            label: "host",
            median: 12.345,
            p25: 11,
            p75: 14.5,
            p99: 120.5,
            n: 50,
            extra: { errors: 0, kind: "x" },
          },
          { label: "baseline", median: 0.01234, p99: 0.5, n: 50 },
        ],
        ratios: { "host / baseline (median)": 1000.4 },
        notes: ["A note."],
      },
    ]);
    expect(text).toContain("demo/10 (ms)");
    expect(text).toMatch(/host\s+12\.3\s+11\s+14\.5\s+121\s+50\s+errors=0 kind=x/);
    // A row with no spread shows a dash in its place.
    expect(text).toMatch(/baseline\s+0\.0123\s+-\s+-\s+0\.500\s+50/);
    expect(text).toContain("ratio host / baseline (median): 1000");
    expect(text).toContain("note: A note.");
  });

  it("prints integers as they are and missing figures as a dash", () => {
    expect(formatFigure(1000)).toBe("1000");
    expect(formatFigure(Number.NaN)).toBe("-");
    expect(formatFigure(2.5)).toBe("2.50");
  });
});

describe("machineInfo and writeReport", () => {
  it("describes the machine and writes the report as JSON", () => {
    const machine = machineInfo();
    expect(machine.cpus).toBeGreaterThan(0);
    expect(machine.memoryBytes).toBeGreaterThan(0);
    expect(machine.node).toBe(process.version);
    const folder = mkdtempSync(join(tmpdir(), "mch-bench-report-"));
    try {
      const file = join(folder, "results.json");
      writeReport(file, { machine, quick: true, results: [], goals: [], failures: [] });
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
        machine,
        quick: true,
        results: [],
        goals: [],
        failures: [],
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
