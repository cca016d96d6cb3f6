// Each stdio MCP server in a box of its own (bubblewrap): the attacks of docs/security.md's
// "Same-user code" and "process tree" items, tried by a real server against a real host
// process, boxed (they fail) and unboxed (they work: the probe is real), and the honest servers
// (the probe's own tools, server-everything by node path and through npx) still working boxed.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpStdioServerConfig } from "../src/config/config-types";
import { McpClientSession } from "../src/mcp-client-session";
import { configureServerBox } from "../src/server-box";
import {
  everythingEntryPoint,
  fixturePath,
  isGone,
  nodeEntry,
  stillRunning,
  waitUntil,
} from "./fixtures/fixture-helpers";
import { startFixtureHost, type FixtureHost } from "./fixtures/fixture-host";

interface ProbeResult {
  boxed: boolean;
  serverPid: number;
  tools: string[];
  echo: string;
  probe: {
    cmdline: string[] | null;
    cwd: string | null;
    keys: { path: string; content: string | null }[];
    processes: string[] | null;
    unmounted: boolean;
  };
}

const sessionKey = "the-session-key\n";
const hosts: FixtureHost[] = [];
const leftovers: number[] = [];

afterEach(async () => {
  configureServerBox({ mode: "off" });
  for (const { host } of hosts.splice(0)) host.kill("SIGKILL");
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** A host's working folder with its data folder (`<folder>/data`) in it. */
function hostFolders(): { folder: string; data: string; result: string } {
  const folder = mkdtempSync(join(tmpdir(), "server-box-test-"));
  const data = join(folder, "data");
  mkdirSync(data, { mode: 0o700 });
  return { folder, data, result: join(folder, "result.json") };
}

/** Runs host-with-box.ts until it is ready; returns what its server found. */
async function runProbeHost(
  mode: "required" | "off",
  probeFlags: readonly string[] = [],
): Promise<{ fixture: FixtureHost; result: ProbeResult }> {
  const { data, result } = hostFolders();
  const fixture = startFixtureHost("host-with-box.ts", [
    mode,
    result,
    ...probeFlags,
    "--data",
    data,
  ]);
  hosts.push(fixture);
  await fixture.ready;
  return { fixture, result: JSON.parse(readFileSync(result, "utf8")) as ProbeResult };
}

/** The pids of the running processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) && !isGone(pid);
      } catch {
        return false;
      }
    });
}

/**
 * A marker no other process's command line holds, and the escapee that carries it, once it
 * runs and the middle process that started it has exited (the escapee is then an orphan).
 */
function escapeMarker(): { marker: string; escapee: () => number[] } {
  const marker = `box-escapee-${process.pid}-${Math.random().toString(36).slice(2)}`;
  // Not the middle process, whose command line holds the escapee's script.
  const escapee = () => {
    const lines = processesWith(marker).map((pid) => ({
      pid,
      line: readFileSync(`/proc/${pid}/cmdline`, "utf8"),
    }));
    if (lines.some(({ line }) => line.includes("child_process"))) return [];
    return lines.filter(({ line }) => line.includes("setInterval")).map(({ pid }) => pid);
  };
  return { marker, escapee };
}

function probeEntry(flags: readonly string[] = []): McpStdioServerConfig {
  return nodeEntry("probe", fixturePath("box-probe-server.mjs"), flags);
}

describe("a stdio server in its box cannot reach the host's secrets", () => {
  it("can't read the session key through /proc/<host pid>/cmdline or cwd, nor see the host's processes; its tools still work", async () => {
    const { result } = await runProbeHost("required");
    expect(result.boxed).toBe(true);
    // The honest path: tools listed and called.
    expect(result.tools).toEqual(["echo", "probe"]);
    expect(JSON.parse(result.echo)).toEqual({ said: "hello" });
    // The attack: the host's command line and working folder are out of sight, the data folder
    // is empty (even at the path the probe was told), and it can't be unmounted.
    const { probe } = result;
    expect(probe.cmdline).toBeNull();
    expect(probe.cwd).toBeNull();
    expect(probe.keys.length).toBeGreaterThan(0);
    expect(probe.keys.map((key) => key.content)).toEqual(probe.keys.map(() => null));
    expect(probe.unmounted).toBe(false);
    // /proc lists the box's own processes only: not the host, not the server's host pid.
    const hostPid = String(hosts[0]?.host.pid);
    expect(probe.processes).not.toContain(hostPid);
    expect(probe.processes).not.toContain(String(result.serverPid));
    expect(probe.processes?.every((pid) => Number(pid) < 100)).toBe(true);
  });

  it("unboxed (--server-box off) the same server does read the session key: the probe is real", async () => {
    const { result } = await runProbeHost("off");
    expect(result.boxed).toBe(false);
    expect(result.probe.cmdline).toContain("--data");
    expect(result.probe.cwd).not.toBeNull();
    expect(result.probe.keys.map((key) => key.content)).toContain(sessionKey);
    expect(result.probe.processes).toContain(String(hosts[0]?.host.pid));
  });
});

describe("no process of a boxed server outlives its box", () => {
  it("kills a process that left the server's session and lost its parent when the session closes", async () => {
    configureServerBox({ mode: "required" });
    const { marker, escapee } = escapeMarker();
    const session = await McpClientSession.open(probeEntry(["--escape", marker]));
    await waitUntil(() => escapee().length === 1, "the escapee to start");
    const pids = escapee();
    leftovers.push(...pids);
    await session.close();
    await waitUntil(() => stillRunning(pids).length === 0, "the escapee to end", 10_000);
  });

  it("unboxed, that escapee outlives the closed session", async () => {
    const { marker, escapee } = escapeMarker();
    const session = await McpClientSession.open(probeEntry(["--escape", marker]));
    await waitUntil(() => escapee().length === 1, "the escapee to start");
    const pids = escapee();
    leftovers.push(...pids);
    await session.close();
    // close() returns once the tree it could find is gone; the escapee was never in it.
    expect(stillRunning(pids)).toEqual(pids);
  });

  it("kills every process of the tree when the host is killed with SIGKILL, a server that ignores the end of stdin included", async () => {
    const { marker, escapee } = escapeMarker();
    const { fixture, result } = await runProbeHost("required", [
      "--escape",
      marker,
      "--ignore-stdin-end",
    ]);
    await waitUntil(() => escapee().length === 1, "the escapee to start");
    // bwrap outside and inside the PID namespace, the server and the escapee.
    const pids = processesWith(marker);
    expect(pids).toContain(result.serverPid);
    expect(pids.length).toBeGreaterThanOrEqual(4);
    leftovers.push(...pids);
    fixture.host.kill("SIGKILL");
    await fixture.exited;
    await waitUntil(() => stillRunning(pids).length === 0, "the server's tree to end", 10_000);
  });

  it("unboxed, a server that ignores the end of stdin outlives a host killed with SIGKILL", async () => {
    const { marker, escapee } = escapeMarker();
    const { fixture, result } = await runProbeHost("off", [
      "--escape",
      marker,
      "--ignore-stdin-end",
    ]);
    // Every process is started before the pids are taken, so that the test kills them all.
    await waitUntil(() => escapee().length === 1, "the escapee to start");
    const pids = processesWith(marker);
    leftovers.push(...pids);
    expect(pids).toContain(result.serverPid);
    fixture.host.kill("SIGKILL");
    await fixture.exited;
    expect(stillRunning([result.serverPid])).toEqual([result.serverPid]);
  });
});

describe("honest servers in their boxes", () => {
  const hidden = () => {
    const { data } = hostFolders();
    writeFileSync(join(data, "session-key"), sessionKey);
    return data;
  };

  it.each([
    ["by node path", nodeEntry("everything", everythingEntryPoint(), ["stdio"])],
    [
      "through npx",
      {
        kind: "stdio",
        name: "everything",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-everything", "stdio"],
        env: {},
      } satisfies McpStdioServerConfig,
    ],
  ])("server-everything starts %s, lists its tools and answers a call", async (_how, entry) => {
    expect(configureServerBox({ mode: "required", hiddenFolders: [hidden()] }).boxed).toBe(true);
    const session = await McpClientSession.open(entry, { startupTimeout: 60 });
    try {
      const tools = (await session.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain("echo");
      const answer = await session.callTool("echo", { message: "boxed" });
      expect(JSON.stringify(answer.content)).toContain("boxed");
    } finally {
      await session.close();
    }
  });

  it("reads and writes only the paths its entry declares (box.read, box.write), without network when asked", async () => {
    const folder = mkdtempSync(join(tmpdir(), "server-box-paths-"));
    const readable = join(folder, "readable");
    const writable = join(folder, "writable");
    mkdirSync(readable);
    mkdirSync(writable);
    writeFileSync(join(readable, "note.txt"), "declared");
    configureServerBox({ mode: "required" });
    const script = [
      `const fs = require("node:fs");`,
      `const out = { note: fs.readFileSync(${JSON.stringify(join(readable, "note.txt"))}, "utf8") };`,
      `try { fs.writeFileSync(${JSON.stringify(join(readable, "x"))}, "x"); out.wroteReadable = true } catch { out.wroteReadable = false }`,
      `fs.writeFileSync(${JSON.stringify(join(writable, "out.json"))}, JSON.stringify(out));`,
    ].join("\n");
    // server-everything's stdio server (its path an argument, so the box shows its package),
    // started by a wrapper that first tries the paths.
    const wrapper = join(writable, "wrapper.cjs");
    writeFileSync(
      wrapper,
      `${script}\nrequire("node:child_process").spawn(process.execPath, [process.argv[2], "stdio"], { stdio: "inherit" }).on("exit", (code) => process.exit(code ?? 1));\n`,
    );
    const entry: McpStdioServerConfig = {
      ...nodeEntry("paths", wrapper, [everythingEntryPoint()]),
      box: { network: false, read: [readable], write: [writable] },
    };
    const session = await McpClientSession.open(entry, { startupTimeout: 60 });
    await session.close();
    expect(JSON.parse(readFileSync(join(writable, "out.json"), "utf8"))).toEqual({
      note: "declared",
      wroteReadable: false,
    });
  });

  it('refuses an entry with "box": false when boxes are required, and runs it unboxed in auto', async () => {
    configureServerBox({ mode: "required" });
    const unboxed = { ...probeEntry(), box: false as const };
    await expect(McpClientSession.open(unboxed)).rejects.toThrow(
      /sets "box": false, but this host runs every stdio server in a box/,
    );
    expect(configureServerBox({ mode: "auto" }).boxed).toBe(true);
    const session = await McpClientSession.open(unboxed);
    try {
      const probe = await session.callTool("probe", {
        hostPid: process.pid,
        dataFolder: tmpdir(),
      });
      // Unboxed, it sees this process.
      expect(JSON.stringify(probe.content)).toContain(String(process.pid));
    } finally {
      await session.close();
    }
  });
});
