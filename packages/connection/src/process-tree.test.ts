// The server's process group dies with the host: on process.exit() and on a signal the host does
// not handle itself. Runs a real host process (through tsx) that opens a session and never
// closes it.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  fixturePath,
  newRecordFile,
  recordedPids,
  waitUntilGone,
} from "../test/fixtures/fixture-helpers";

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function startHost(record: string, how: "exit" | "wait") {
  const host = spawn(
    process.execPath,
    ["--import", tsxLoader, fixturePath("host-that-exits.ts"), record, how],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const ready = new Promise<void>((resolve, reject) => {
    host.stdout.setEncoding("utf8");
    host.stdout.on("data", (text: string) => {
      if (text.startsWith("ready")) resolve();
    });
    host.once("exit", () => reject(new Error("the host exited before it was ready")));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    host.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { host, ready, exited };
}

describe("process groups at host exit", () => {
  it("are killed when the host calls process.exit() without closing its sessions", async () => {
    const record = newRecordFile();
    const { exited } = startHost(record, "exit");
    expect(await exited).toEqual({ code: 0, signal: null });
    const pids = recordedPids(record);
    expect(pids).toHaveLength(2);
    await waitUntilGone(pids);
  });

  it("are killed on SIGTERM when the host has no handler, and the host still terminates", async () => {
    const record = newRecordFile();
    const { host, ready, exited } = startHost(record, "wait");
    await ready;
    host.kill("SIGTERM");
    expect(await exited).toEqual({ code: null, signal: "SIGTERM" });
    const pids = recordedPids(record);
    expect(pids).toHaveLength(2);
    await waitUntilGone(pids);
  });
});
