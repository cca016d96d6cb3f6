// The server's whole tree dies with the host: on process.exit() and on a signal the host does
// not handle itself, a grandchild that left the server's group and session included. Runs a real
// host process (through tsx) that opens a session and never closes it.
import { describe, expect, it } from "vitest";
import { newRecordFile, recordedPids, waitUntilGone } from "../test/fixtures/fixture-helpers";
import { startFixtureHost } from "../test/fixtures/fixture-host";
import { findProcessTree } from "./process-tree-walk";

function startHost(record: string, how: "exit" | "wait") {
  return startFixtureHost("host-that-exits.ts", [record, how]);
}

describe("process trees at host exit", () => {
  it("are killed when the host calls process.exit() without closing its sessions", async () => {
    const record = newRecordFile();
    const { exited } = startHost(record, "exit");
    expect(await exited).toEqual({ code: 0, signal: null });
    const pids = recordedPids(record);
    expect(pids).toHaveLength(3);
    await waitUntilGone(pids);
  });

  it("are killed on SIGTERM when the host has no handler, and the host still terminates", async () => {
    const record = newRecordFile();
    const { host, ready, exited } = startHost(record, "wait");
    await ready;
    host.kill("SIGTERM");
    expect(await exited).toEqual({ code: null, signal: "SIGTERM" });
    const pids = recordedPids(record);
    expect(pids).toHaveLength(3);
    await waitUntilGone(pids);
  });
});

describe("findProcessTree", () => {
  const entry = (
    pid: number,
    parentPid: number,
    processGroup: number,
    session: number,
    state = "S",
    startTime = pid * 10,
  ) => ({ pid, parentPid, processGroup, session, state, startTime });
  // 100 is the server (leading group and session 100); 101 its child in the group; 102 a child
  // that ran setsid (a browser), with its own child 103; 104 an orphan of the session that moved
  // to another group; 105 a zombie; 200 and 201 have nothing to do with it.
  const table = [
    entry(100, 1, 100, 100),
    entry(101, 100, 100, 100),
    entry(102, 100, 102, 102),
    entry(103, 102, 102, 102),
    entry(104, 1, 104, 100),
    entry(105, 100, 100, 100, "Z"),
    entry(200, 1, 200, 200),
    entry(201, 200, 200, 200),
  ];
  const pids = (
    root: { pid: number; startTime?: number },
    options: Parameters<typeof findProcessTree>[1] = {},
    rows = table,
  ) =>
    findProcessTree(root, options, rows)
      .map((found) => found.pid)
      .sort();

  it("finds descendants that left the group, and session members that were orphaned", () => {
    expect(pids({ pid: 100, startTime: 1000 })).toEqual([100, 101, 102, 103, 104]);
  });

  it("follows the group and session of a server that is gone only when told they are its own", () => {
    // The server died and its pid went to an unrelated process with children of its own: its
    // children are never followed; its session and group only on the parent's word.
    const reused = [entry(100, 1, 300, 300, "S", 5), entry(301, 100, 300, 300), ...table.slice(1)];
    expect(pids({ pid: 100, startTime: 1000 }, {}, reused)).toEqual([]);
    expect(pids({ pid: 100, startTime: 1000 }, { ownGroup: true }, reused)).toEqual([101, 104]);
  });

  it("keeps known members that were orphaned, but not a pid that went to another process", () => {
    // The server exited; its setsid child 102 was reparented to init and kept its child 103.
    const orphaned = [entry(102, 1, 102, 102), entry(103, 102, 102, 102), entry(400, 1, 400, 400)];
    const known = [
      { pid: 102, startTime: 1020 },
      { pid: 400, startTime: 1 },
    ];
    expect(pids({ pid: 100, startTime: 1000 }, { known }, orphaned)).toEqual([102, 103]);
  });

  it("never includes the host itself", () => {
    const withHost = [...table, entry(process.pid, 100, 100, 100)];
    expect(pids({ pid: 100, startTime: 1000 }, {}, withHost)).not.toContain(process.pid);
  });
});
