// `mcp-chat-host audit` run as a child process against a real data folder, written by the host's
// own store: while that store has the file open (a running server) and after it closed.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HostStore, openStore } from "@mcp-chat-host/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./cli-child";

let data = "";
let store: HostStore | null = null;

const day = Date.parse("2031-05-01T00:00:00Z");
const hour = 3_600_000;

beforeEach(async () => {
  data = mkdtempSync(join(tmpdir(), "mch-audit-cli-"));
  store = await openStore(`sqlite:${join(data, "mcp-chat-host.db")}`);
  const base = {
    sessionId: "s-1",
    instanceId: "card-1",
    source: "notes",
    durationMs: 3,
  };
  await store.appendAudits([
    {
      ...base,
      at: day + 1 * hour,
      userId: "ada",
      conversationId: "c-1",
      tool: "save",
      verdict: "allowed",
    },
    {
      ...base,
      at: day + 2 * hour,
      userId: "ada",
      conversationId: "c-1",
      tool: "delete",
      verdict: "refused",
      reason: "The person refused.",
      approval: {
        answeredBy: "person",
        answer: "refuse",
        scope: "call",
        answeredAt: day + 2 * hour - 5_000,
      },
    },
    {
      ...base,
      at: day + 3 * hour,
      userId: "bob",
      conversationId: "c-2",
      tool: "save",
      verdict: "failed",
      reason: "disk",
    },
    {
      ...base,
      at: day + 4 * hour,
      userId: "ada",
      conversationId: null,
      tool: "peek",
      verdict: "allowed",
    },
  ]);
});

afterEach(async () => {
  await store?.close();
  store = null;
  rmSync(data, { recursive: true, force: true });
});

/** Runs `audit --data <data> ...` and parses its JSON lines. */
async function audit(...args: string[]): Promise<Record<string, unknown>[]> {
  const run = await runCli(["audit", "--data", data, ...args]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("mcp-chat-host audit", () => {
  it("prints every audited call as a JSON line, oldest first, while the server has the file open", async () => {
    const lines = await audit();
    expect(lines.map((line) => line["tool"])).toEqual(["save", "delete", "save", "peek"]);
    expect(lines[1]).toEqual({
      at: "2031-05-01T02:00:00.000Z",
      id: expect.any(String),
      userId: "ada",
      sessionId: "s-1",
      conversationId: "c-1",
      instanceId: "card-1",
      source: "notes",
      tool: "delete",
      verdict: "refused",
      reason: "The person refused.",
      durationMs: 3,
      approval: {
        answeredBy: "person",
        answer: "refuse",
        scope: "call",
        answeredAt: "2031-05-01T01:59:55.000Z",
      },
    });
  });

  it("filters by user, conversation, time and count", async () => {
    expect((await audit("--user", "ada")).map((line) => line["tool"])).toEqual([
      "save",
      "delete",
      "peek",
    ]);
    expect((await audit("--conversation", "c-2")).map((line) => line["userId"])).toEqual(["bob"]);
    const window = await audit(
      "--since",
      "2031-05-01T02:00:00Z",
      "--until",
      String(day + 4 * hour),
    );
    expect(window.map((line) => line["at"])).toEqual([
      "2031-05-01T02:00:00.000Z",
      "2031-05-01T03:00:00.000Z",
    ]);
    expect((await audit("--user", "ada", "--limit", "2")).map((line) => line["tool"])).toEqual([
      "delete",
      "peek",
    ]);
    // An age counts back from now: these rows are in 2031, so none is older than a day.
    expect(await audit("--until", "1d")).toEqual([]);
  });

  it("reads the file after the server stopped, and never writes to it", async () => {
    await store?.close();
    store = null;
    const file = join(data, "mcp-chat-host.db");
    const before = statSync(file);
    expect((await audit()).map((line) => line["tool"])).toEqual(["save", "delete", "save", "peek"]);
    const after = statSync(file);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    // A read-only reader of a WAL file may leave SQLite's empty -wal/-shm beside it, nothing else.
    expect(readdirSync(data).filter((name) => !name.startsWith("mcp-chat-host.db"))).toEqual([]);
  });

  it("says what is wrong with a missing data file or a bad option, and exits 1", async () => {
    const empty = mkdtempSync(join(tmpdir(), "mch-audit-empty-"));
    try {
      const missing = await runCli(["audit", "--data", empty]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("There is no data file");
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const badTime = await runCli(["audit", "--data", data, "--since", "yesterday"]);
    expect(badTime.code).toBe(1);
    expect(badTime.stderr).toContain("--since must be");
    const unknown = await runCli(["audit", "--data", data, "--verbose"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("--verbose");
  });
});
