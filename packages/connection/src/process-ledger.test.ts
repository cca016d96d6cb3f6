// The process ledger against real processes: a host fixture that is killed with SIGKILL leaves
// its server (which ignores the end of its stdin) and a grandchild that left the group running;
// the next run reaps exactly those. Entries whose pid was given to another process, and runs
// whose host still runs, are left alone. Linux only: the ledger needs /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  isGone,
  newRecordFile,
  readRecord,
  recordedPids,
  stillRunning,
  waitUntil,
} from "../test/fixtures/fixture-helpers";
import { startFixtureHost, type FixtureHost } from "../test/fixtures/fixture-host";
import { ProcessLedger } from "./process-ledger";
import { currentBootId, identifyProcess } from "./process-table";

const spawned: ChildProcess[] = [];
const hosts: FixtureHost[] = [];
// Processes a failed test could leave running (a crashed host's server and grandchild).
const leftovers: number[] = [];

afterEach(() => {
  for (const child of spawned.splice(0)) child.kill("SIGKILL");
  for (const { host } of hosts.splice(0)) host.kill("SIGKILL");
  for (const pid of leftovers.splice(0)) {
    if (!isGone(pid)) process.kill(pid, "SIGKILL");
  }
});

function ledgerFolder(): string {
  return join(mkdtempSync(join(tmpdir(), "mcp-ledger-test-")), "processes");
}

async function startIdleProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  spawned.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child as ChildProcess & { pid: number };
}

async function startCrashingHost(
  folder: string,
  record: string,
  how: "stays" | "exits" = "stays",
): Promise<FixtureHost> {
  const fixture = startFixtureHost("host-with-ledger.ts", [folder, record, how]);
  hosts.push(fixture);
  await fixture.ready;
  return fixture;
}

function writeRun(folder: string, name: string, run: Record<string, unknown>): void {
  writeFileSync(join(folder, name), JSON.stringify({ version: 1, ...run }));
}

describe.runIf(process.platform === "linux")("ProcessLedger", () => {
  it("reaps the server and grandchild a host killed with SIGKILL left running", async () => {
    const folder = ledgerFolder();
    const record = newRecordFile();
    const { host, exited } = await startCrashingHost(folder, record);
    const pids = recordedPids(record);
    leftovers.push(...pids);
    expect(pids).toHaveLength(2);
    const [runFile] = readdirSync(folder);
    expect(statSync(join(folder, runFile ?? "")).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    host.kill("SIGKILL");
    expect(await exited).toEqual({ code: null, signal: "SIGKILL" });
    // Nothing ran in the host to stop them.
    expect(stillRunning(pids)).toEqual(pids);

    const log: string[] = [];
    const ledger = await ProcessLedger.open(folder, { log: (line) => log.push(line) });
    ledger.uninstall();
    const [serverPid] = readRecord(record)
      .filter((event) => event.event === "start")
      .map((event) => event.pid);
    expect(ledger.lastReap?.reaped.map((server) => [server.name, server.pid])).toEqual([
      ["left-behind", serverPid],
    ]);
    expect(stillRunning(pids)).toEqual([]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(
      new RegExp(
        `^Stopped MCP server "left-behind" \\(pid ${serverPid}, .*scripted-server\\.mjs.*\\) and 1 process it started: an earlier run of the host \\(pid ${host.pid}\\) ended without stopping it\\.$`,
      ),
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it("reaps a grandchild that left the group after its server exited with the crashed host", async () => {
    const folder = ledgerFolder();
    const record = newRecordFile();
    const { host, exited } = await startCrashingHost(folder, record, "exits");
    const events = readRecord(record);
    const serverPid = events.find((event) => event.event === "start")?.pid as number;
    const grandchildPid = events.find((event) => event.event === "setsid-grandchild")
      ?.pid as number;
    leftovers.push(serverPid, grandchildPid);
    host.kill("SIGKILL");
    await exited;
    // The server sees its stdin end and exits; the grandchild, in a session of its own, stays.
    await waitUntil(() => isGone(serverPid), "the server to exit");
    expect(isGone(grandchildPid)).toBe(false);

    const log: string[] = [];
    const report = await new ProcessLedger(folder, {
      log: (line) => log.push(line),
    }).reapLeftovers();
    expect(report.reaped.map((server) => server.pid)).toEqual([serverPid]);
    expect(isGone(grandchildPid)).toBe(true);
    expect(log).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Stopped 1 process that MCP server "left-behind" \\(pid ${serverPid}, .*\\) had started: an earlier run of the host \\(pid ${host.pid}\\) ended without stopping them\\.$`,
        ),
      ),
    ]);
  });

  it("leaves alone an entry whose pid now belongs to another process", async () => {
    const folder = ledgerFolder();
    ledgerFolderReady(folder);
    const bystander = await startIdleProcess();
    const identity = identifyProcess(bystander.pid);
    if (identity === undefined) throw new Error("no /proc entry for the bystander");
    const dead = await startIdleProcess();
    dead.kill("SIGKILL");
    await waitUntil(() => isGone(dead.pid), "the old host to end");
    writeRun(folder, `run-${dead.pid}-1.json`, {
      bootId: currentBootId(),
      host: { pid: dead.pid, startTime: 1 },
      servers: [
        { pid: bystander.pid, startTime: identity.startTime - 1, name: "old", command: "old" },
      ],
    });
    const log: string[] = [];
    const report = await new ProcessLedger(folder, {
      log: (line) => log.push(line),
    }).reapLeftovers();
    expect(report.reaped).toEqual([]);
    expect(report.reused.map((server) => server.pid)).toEqual([bystander.pid]);
    expect(isGone(bystander.pid)).toBe(false);
    expect(log).toEqual([
      `Left pid ${bystander.pid} alone: it no longer runs MCP server "old" of an earlier run (its start time differs).`,
    ]);
    expect(readdirSync(folder)).toEqual([]);
  });

  it("leaves the servers of a host that still runs alone, and drops runs of an earlier boot", async () => {
    const folder = ledgerFolder();
    ledgerFolderReady(folder);
    const live = await startIdleProcess();
    const liveIdentity = identifyProcess(live.pid);
    const server = await startIdleProcess();
    const serverIdentity = identifyProcess(server.pid);
    if (liveIdentity === undefined || serverIdentity === undefined) throw new Error("no /proc");
    const entry = { ...serverIdentity, name: "busy", command: "busy" };
    writeRun(folder, `run-${live.pid}-${liveIdentity.startTime}.json`, {
      bootId: currentBootId(),
      host: liveIdentity,
      servers: [entry],
    });
    writeRun(folder, "run-1-1.json", {
      bootId: "an-earlier-boot",
      host: { pid: 1, startTime: 1 },
      servers: [entry],
    });
    const report = await new ProcessLedger(folder).reapLeftovers();
    expect(report).toEqual({ reaped: [], reused: [], gone: [], liveRuns: 1 });
    expect(isGone(server.pid)).toBe(false);
    expect(readdirSync(folder)).toEqual([`run-${live.pid}-${liveIdentity.startTime}.json`]);
  });
});

function ledgerFolderReady(folder: string): void {
  mkdirSync(folder, { recursive: true });
}
