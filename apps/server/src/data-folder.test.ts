// The runnable host's data folder (the database, the session key, the sandbox
// ports) is readable by its owner only, whatever the umask; an existing folder with looser modes
// is tightened at start, and the log says what was changed.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareDataFolder } from "./data-folder";
import { fileSandboxPorts } from "./sandbox-ports";
import { loadSessionKey } from "./session-key";

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n"))
        if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

describe.skipIf(process.platform === "win32")("the data folder", () => {
  let root: string;
  let previousUmask: number;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "mcp-chat-host-data-"));
    previousUmask = process.umask(0o000);
  });

  afterEach(() => {
    process.umask(previousUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it("creates the folder 0700, and the session key and sandbox ports 0600", () => {
    const data = join(root, "data");
    const { logger, lines } = memoryLogger();
    prepareDataFolder(data, logger);
    expect(modeOf(data)).toBe("0700");
    const key = loadSessionKey(data);
    expect(key.length).toBeGreaterThanOrEqual(32);
    fileSandboxPorts(data).remember(41_234);
    expect(modeOf(join(data, "session-key"))).toBe("0600");
    expect(modeOf(join(data, "sandbox-ports.json"))).toBe("0600");
    expect(JSON.parse(readFileSync(join(data, "sandbox-ports.json"), "utf8"))).toEqual({
      sandbox: 41_234,
    });
    // A second start reads the same key and ports.
    expect(loadSessionKey(data).equals(key)).toBe(true);
    expect(fileSandboxPorts(data).preferred()).toBe(41_234);
    expect(lines.filter((line) => line["level"] === 40)).toEqual([]);
  });

  it("a session key made by loadSessionKey alone is private too", () => {
    const data = join(root, "fresh");
    loadSessionKey(data);
    expect(modeOf(data)).toBe("0700");
    expect(modeOf(join(data, "session-key"))).toBe("0600");
  });

  it("tightens an existing 0755 folder with 0644 files at start and logs every change", () => {
    const data = join(root, "data");
    mkdirSync(data);
    chmodSync(data, 0o755);
    const names = [
      "mcp-chat-host.db",
      "mcp-chat-host.db-shm",
      "mcp-chat-host.db-wal",
      "sandbox-ports.json",
      "session-key",
    ];
    for (const name of names) {
      writeFileSync(join(data, name), name === "sandbox-ports.json" ? "{}" : "x");
      chmodSync(join(data, name), 0o644);
    }
    const { logger, lines } = memoryLogger();
    prepareDataFolder(data, logger);
    expect(modeOf(data)).toBe("0700");
    for (const name of names) expect([name, modeOf(join(data, name))]).toEqual([name, "0600"]);
    expect(lines.filter((line) => line["level"] === 40)).toEqual([
      expect.objectContaining({
        msg: "the data folder was readable by other users; its modes were tightened",
        folder: data,
        changes: [
          { path: data, from: "0755", to: "0700" },
          ...names.map((name) => ({ path: join(data, name), from: "0644", to: "0600" })),
        ],
      }),
    ]);
    // The next start has nothing to say.
    const again = memoryLogger();
    prepareDataFolder(data, again.logger);
    expect(again.lines.filter((line) => line["level"] === 40)).toEqual([]);
  });

  it("keeps the sandbox ports file 0600 when an older run left it 0644", () => {
    const data = join(root, "data");
    mkdirSync(data, { mode: 0o700 });
    writeFileSync(join(data, "sandbox-ports.json"), "{}");
    chmodSync(join(data, "sandbox-ports.json"), 0o644);
    fileSandboxPorts(data).remember(41_235);
    expect(modeOf(join(data, "sandbox-ports.json"))).toBe("0600");
  });
});
