// Prints the figures as a table and writes them, with the machine they ran on, to a JSON file.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import type { BenchResult, BenchRow, GoalRow } from "./bench-result";
import { openFilesLimit } from "./process-stats";

/** The machine a run happened on, so figures can be compared with their context. */
export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryBytes: number;
  node: string;
  /** `chromium --version` of the browser the Chromium benchmarks use, or null when none is found. */
  chromium: string | null;
  platform: string;
  /** The open-files limit of the runner (1,000 sessions need about 1,000 on each side). */
  openFilesLimit: number | null;
  date: string;
}

/** A benchmark that could not finish, or broke a promise, and why. */
export interface BenchFailureRecord {
  benchmark: string;
  message: string;
}

/** Everything `bench/results.json` holds. */
export interface BenchReport {
  machine: MachineInfo;
  quick: boolean;
  results: BenchResult[];
  /** The speed goals (`goals.ts`), each with its baseline, figure, ratio and whether it is met. */
  goals: GoalRow[];
  failures: BenchFailureRecord[];
}

/** The browser the Chromium benchmarks launch: `CHROMIUM_PATH`, else `/usr/bin/chromium`. */
function chromiumPath(): string {
  return process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
}

/** The first line a command prints, or null when it can't run (bounded to 10 s). */
function firstLine(command: string, args: string[]): string | null {
  try {
    const output = execFileSync(command, args, {
      encoding: "utf8",
      timeout: 10_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return output.trim().split("\n")[0]?.trim() || null;
  } catch {
    return null;
  }
}

/**
 * Describes this machine: CPUs, memory, Node, the Chromium the browser benchmarks use, the
 * platform, the open-files limit and the date.
 */
export function machineInfo(): MachineInfo {
  const processors = cpus();
  const browser = chromiumPath();
  return {
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? "unknown",
    memoryBytes: totalmem(),
    node: process.version,
    chromium: existsSync(browser) ? firstLine(browser, ["--version"]) : null,
    platform: `${platform()} ${release()}`,
    openFilesLimit: openFilesLimit(),
    date: new Date().toISOString(),
  };
}

/** A figure with three significant digits (or "-" when there is none). */
export function formatFigure(value: number): string {
  if (!Number.isFinite(value)) return "-";
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

function extraText(row: BenchRow): string {
  if (row.extra === undefined) return "";
  return Object.entries(row.extra)
    .map(([key, value]) => `${key}=${typeof value === "number" ? formatFigure(value) : value}`)
    .join(" ");
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/**
 * The results as a plain-text table: one line per row (median, p25, p75, p99, n, extras), then each
 * result's ratios and notes.
 *
 * @returns the text, ending in a newline.
 */
export function formatTable(results: readonly BenchResult[]): string {
  const lines: string[] = [];
  const labelWidth = Math.max(
    5,
    ...results.flatMap((result) => result.rows.map((row) => row.label.length)),
  );
  for (const result of results) {
    lines.push("", `${result.name} (${result.unit})`);
    lines.push(
      `  ${pad("label", labelWidth)}  ${pad("median", 10, true)}  ${pad("p25", 10, true)}  ${pad("p75", 10, true)}  ${pad("p99", 10, true)}  ${pad("n", 7, true)}  extra`,
    );
    for (const row of result.rows) {
      lines.push(
        `  ${pad(row.label, labelWidth)}  ${pad(formatFigure(row.median), 10, true)}  ${pad(formatFigure(row.p25 ?? Number.NaN), 10, true)}  ${pad(formatFigure(row.p75 ?? Number.NaN), 10, true)}  ${pad(formatFigure(row.p99), 10, true)}  ${pad(String(row.n), 7, true)}  ${extraText(row)}`.trimEnd(),
      );
    }
    for (const [name, value] of Object.entries(result.ratios ?? {})) {
      lines.push(`  ratio ${name}: ${formatFigure(value)}`);
    }
    for (const note of result.notes ?? []) lines.push(`  note: ${note}`);
  }
  return `${lines.join("\n")}\n`;
}

/** One line describing the machine, for the top of the table. */
export function formatMachine(machine: MachineInfo): string {
  const memory = `${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB`;
  return `${machine.cpus} × ${machine.cpuModel}, ${memory}, Node ${machine.node}, ${machine.chromium ?? "no Chromium found"}, ${machine.platform}, ulimit -n ${machine.openFilesLimit ?? "?"}, ${machine.date}`;
}

/**
 * Writes the report as JSON (two-space indented).
 *
 * @param path - where to write it (the runner picks `bench/results.json` or, for `--quick`,
 *   `bench/results-quick.json`, so a quick run never overwrites real figures).
 */
export function writeReport(path: string, report: BenchReport): void {
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
