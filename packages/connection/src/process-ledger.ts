// A record, in the data folder, of the stdio servers this host process runs, so that the next
// run can stop what a crashed run (kill -9, a power cut of the process, an OOM kill) left
// running. Each host run keeps one file of its own; a later run reaps a file only when its host
// is gone, and kills only the servers whose pid and start time both still match.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "@mcp-chat-host/protocol";
import {
  currentBootId,
  identifyProcess,
  isRunning,
  processTableAvailable,
  readProcessStat,
} from "./process-table";
import {
  killProcessTree,
  setProcessRecorder,
  type ProcessIdentity,
  type ProcessLabel,
  type ProcessRecorder,
} from "./process-tree";
import { waitUntilProcessesGone } from "./process-tree-walk";

/** One server a run recorded. */
export interface LedgerServer extends ProcessLabel {
  pid: number;
  /** Field 22 of /proc/<pid>/stat when it was started. */
  startTime: number;
  /** The processes last seen in its tree (sampled every few seconds), with their start times. */
  members?: ProcessIdentity[];
}

/** What {@link ProcessLedger.reapLeftovers} did. */
export interface ReapReport {
  /** Servers of an ended run that still ran: killed, with their whole trees. */
  reaped: LedgerServer[];
  /** Entries whose pid now belongs to another process (its start time differs): left alone. */
  reused: LedgerServer[];
  /** Entries whose process had already ended. */
  gone: LedgerServer[];
  /** Files of runs whose host still runs (another host on the same data folder): untouched. */
  liveRuns: number;
}

/** Options of {@link ProcessLedger}. */
export interface ProcessLedgerOptions {
  /** Receives one line per server reaped or left alone, for the host's log (info level). */
  log?: (message: string) => void;
  /** Receives a line for a ledger file that cannot be read or written (warn level). */
  warn?: (message: string) => void;
}

interface RunFile {
  version: 1;
  bootId: string | null;
  host: { pid: number; startTime: number };
  servers: LedgerServer[];
}

const filePrefix = "run-";
// After SIGKILL a process is gone within milliseconds unless stuck in the kernel.
const reapLimitMs = 5000;

/**
 * The stdio servers of this host, recorded in a folder so that a later run can reap them if this
 * one dies without stopping them. Linux only (it needs /proc for start times); elsewhere it
 * records and reaps nothing, and servers are still killed with their process group at exit.
 *
 * At startup, before any server starts: `const ledger = await ProcessLedger.open(join(data,
 * "processes"), { log })`. From then on every stdio server this process spawns (through any
 * `McpClientSession`, `McpConnection` or shared connection) is recorded in
 * `<folder>/run-<host pid>-<host start time>.json` (mode 0600, folder 0700), and removed once its
 * tree is gone; the file is deleted when no server is left.
 */
export class ProcessLedger implements ProcessRecorder {
  /** The folder holding one file per host run. */
  readonly directory: string;
  /** What the reaping done by {@link ProcessLedger.open} found. */
  lastReap: ReapReport | undefined;

  private readonly options: ProcessLedgerOptions;
  private readonly servers = new Map<number, LedgerServer>();
  private readonly host: { pid: number; startTime: number } | undefined;
  private readonly bootId = currentBootId() ?? null;

  /**
   * @param directory - the ledger folder, e.g. `<data folder>/processes` (created when needed).
   * @param options - where the log lines go.
   */
  constructor(directory: string, options: ProcessLedgerOptions = {}) {
    this.directory = directory;
    this.options = options;
    this.host = processTableAvailable() ? identifyProcess(process.pid) : undefined;
  }

  /**
   * Reaps what ended runs left behind, then records this process's servers from now on.
   *
   * @param directory - the ledger folder.
   * @param options - where the log lines go.
   * @returns the installed ledger; `lastReap` says what was reaped.
   */
  static async open(directory: string, options: ProcessLedgerOptions = {}): Promise<ProcessLedger> {
    const ledger = new ProcessLedger(directory, options);
    ledger.lastReap = await ledger.reapLeftovers();
    ledger.install();
    return ledger;
  }

  /** The file of this run. */
  get file(): string {
    return join(this.directory, `${filePrefix}${process.pid}-${this.host?.startTime ?? 0}.json`);
  }

  /**
   * Makes this ledger the one told of every stdio server this process starts and ends (one
   * ledger per process; installing another replaces it).
   */
  install(): void {
    if (this.host === undefined) return;
    setProcessRecorder(this);
  }

  /** Stops recording (the file keeps the servers still running). */
  uninstall(): void {
    setProcessRecorder(undefined);
  }

  /**
   * Reads the files of other runs. A run whose host still runs is left alone. Of an ended run,
   * each server whose pid and start time both match a running process is killed with its whole
   * tree (and waited for); an entry whose pid now belongs to another process is never touched.
   * The run's file is then deleted. A file from an earlier boot of the machine is deleted
   * without acting on it (nothing of that boot runs). Each reaped or spared server is logged.
   *
   * @returns what was found and done.
   */
  async reapLeftovers(): Promise<ReapReport> {
    const report: ReapReport = { reaped: [], reused: [], gone: [], liveRuns: 0 };
    if (this.host === undefined) return report;
    const killed: ProcessIdentity[] = [];
    for (const name of this.runFiles()) {
      const path = join(this.directory, name);
      if (path === this.file) continue;
      const run = this.readRun(path);
      if (run === undefined) continue;
      if (run.bootId === this.bootId && isRunning(run.host)) {
        report.liveRuns += 1;
        continue;
      }
      if (run.bootId === this.bootId) {
        for (const server of run.servers) killed.push(...this.reapServer(server, run, report));
      }
      rmSync(path, { force: true });
    }
    if (!(await waitUntilProcessesGone(killed, reapLimitMs))) {
      this.options.warn?.(
        `Some processes left by an earlier run still ran ${reapLimitMs / 1000} s after SIGKILL.`,
      );
    }
    return report;
  }

  /** Records a server this process started (called by the process tree). */
  started(root: ProcessIdentity, label: ProcessLabel): void {
    if (root.startTime === undefined) return;
    this.servers.set(root.pid, { pid: root.pid, startTime: root.startTime, ...label });
    this.write();
  }

  /** Records the processes last seen in a server's tree (called by the process tree). */
  membersChanged(root: ProcessIdentity, members: readonly ProcessIdentity[]): void {
    const server = this.servers.get(root.pid);
    if (server === undefined) return;
    server.members = members.filter((member) => member.startTime !== undefined);
    this.write();
  }

  /** Forgets a server whose tree is gone (called by the process tree). */
  ended(root: ProcessIdentity): void {
    if (this.servers.delete(root.pid)) this.write();
  }

  private reapServer(server: LedgerServer, run: RunFile, report: ReapReport): ProcessIdentity[] {
    const members = server.members ?? [];
    const serverRuns = isRunning(server);
    if (!serverRuns && !members.some(isRunning)) return this.spare(server, report);
    // The session and group are followed only while the server itself runs: once it is gone, a
    // new process may hold its pid, so only the identities seen before are trusted.
    const killed = killProcessTree(server, { known: members });
    report.reaped.push(server);
    const others = killed.filter((entry) => entry.pid !== server.pid).length;
    const processes = `${others} process${others === 1 ? "" : "es"}`;
    const what = serverRuns
      ? `MCP server "${server.name}" (pid ${server.pid}, ${server.command})${others > 0 ? ` and ${processes} it started` : ""}`
      : `${processes} that MCP server "${server.name}" (pid ${server.pid}, ${server.command}) had started`;
    this.options.log?.(
      `Stopped ${what}: an earlier run of the host (pid ${run.host.pid}) ended without stopping ${serverRuns ? "it" : "them"}.`,
    );
    return killed;
  }

  private spare(server: LedgerServer, report: ReapReport): ProcessIdentity[] {
    const now = readProcessStat(server.pid);
    if (now !== undefined && now.state !== "Z" && now.state !== "X") {
      report.reused.push(server);
      this.options.log?.(
        `Left pid ${server.pid} alone: it no longer runs MCP server "${server.name}" of an earlier run (its start time differs).`,
      );
    } else {
      report.gone.push(server);
    }
    return [];
  }

  private runFiles(): string[] {
    try {
      return readdirSync(this.directory).filter(
        (name) => name.startsWith(filePrefix) && name.endsWith(".json"),
      );
    } catch {
      return [];
    }
  }

  private readRun(path: string): RunFile | undefined {
    try {
      const run = JSON.parse(readFileSync(path, "utf8")) as RunFile;
      if (run.version !== 1 || !Array.isArray(run.servers)) throw new Error("unknown format");
      run.servers = run.servers.filter(isIdentity).map((server) => ({
        ...server,
        members: Array.isArray(server.members) ? server.members.filter(isIdentity) : [],
      }));
      return run;
    } catch (error) {
      this.options.warn?.(`Ignored the process ledger file ${path}: ${errorMessage(error)}.`);
      return undefined;
    }
  }

  // The whole file is rewritten (a handful of entries) through a rename, so a crash mid-write
  // leaves the previous version.
  private write(): void {
    if (this.host === undefined) return;
    try {
      if (this.servers.size === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      const run: RunFile = {
        version: 1,
        bootId: this.bootId,
        host: this.host,
        servers: [...this.servers.values()],
      };
      const temporary = `${this.file}.tmp`;
      rmSync(temporary, { force: true });
      writeFileSync(temporary, `${JSON.stringify(run)}\n`, { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch (error) {
      this.options.warn?.(
        `Could not update the process ledger ${this.file}: ${errorMessage(error)}. Servers left by a crash may not be stopped at the next start.`,
      );
    }
  }
}

function isIdentity(value: unknown): value is { pid: number; startTime: number } {
  const record = value as { pid?: unknown; startTime?: unknown } | null;
  return Number.isInteger(record?.pid) && Number.isInteger(record?.startTime);
}
