// The data folder and what is in it are readable by their owner only, whatever
// the process umask. Every test runs under umask 000, the loosest there is.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { securePrivateFolder, tightenPrivateFiles, writePrivateFile } from "./private-files";

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

describe.skipIf(process.platform === "win32")("private files", () => {
  let root: string;
  let previousUmask: number;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "mcp-chat-host-private-"));
    previousUmask = process.umask(0o000);
  });

  afterEach(() => {
    process.umask(previousUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it("creates a missing data folder 0700, with its missing parents", () => {
    const folder = join(root, "a", "b", "data");
    expect(securePrivateFolder(folder)).toEqual([]);
    expect(modeOf(folder)).toBe("0700");
  });

  it("tightens an existing folder and every entry in it, and says what it changed", () => {
    const folder = join(root, "data");
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    for (const name of ["mcp-chat-host.db", "mcp-chat-host.db-wal", "session-key", "other.json"]) {
      writeFileSync(join(folder, name), "x");
      chmodSync(join(folder, name), 0o644);
    }
    writeFileSync(join(folder, "script.sh"), "x");
    chmodSync(join(folder, "script.sh"), 0o755);
    mkdirSync(join(folder, "logs"));
    chmodSync(join(folder, "logs"), 0o775);
    // A link is left alone: its target is not the host's to change.
    const outside = join(root, "outside.txt");
    writeFileSync(outside, "x");
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(folder, "link"));

    const changes = securePrivateFolder(folder);
    expect(changes).toEqual([
      { path: folder, from: "0755", to: "0700" },
      { path: join(folder, "logs"), from: "0775", to: "0700" },
      { path: join(folder, "mcp-chat-host.db"), from: "0644", to: "0600" },
      { path: join(folder, "mcp-chat-host.db-wal"), from: "0644", to: "0600" },
      { path: join(folder, "other.json"), from: "0644", to: "0600" },
      { path: join(folder, "script.sh"), from: "0755", to: "0700" },
      { path: join(folder, "session-key"), from: "0644", to: "0600" },
    ]);
    expect(modeOf(outside)).toBe("0644");
    // Nothing is left to change.
    expect(securePrivateFolder(folder)).toEqual([]);
  });

  it("sets files to 0600 exactly and skips the missing ones", () => {
    const file = join(root, "host.db");
    writeFileSync(file, "x");
    chmodSync(file, 0o664);
    expect(tightenPrivateFiles([file, join(root, "host.db-wal")])).toEqual([
      { path: file, from: "0664", to: "0600" },
    ]);
    expect(modeOf(file)).toBe("0600");
    expect(tightenPrivateFiles([file])).toEqual([]);
  });

  it("writes a new file 0600 and makes an existing loose one 0600 before writing", () => {
    const file = join(root, "sandbox-ports.json");
    writePrivateFile(file, "{}\n");
    expect(modeOf(file)).toBe("0600");
    chmodSync(file, 0o666);
    writePrivateFile(file, '{"a":1}\n');
    expect(modeOf(file)).toBe("0600");
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n');
  });

  it.runIf(process.getuid?.() === 0)("refuses a data folder that belongs to another user", () => {
    const folder = join(root, "theirs");
    mkdirSync(folder, { mode: 0o777 });
    chownSync(folder, 4242, 4242);
    expect(() => securePrivateFolder(folder)).toThrow(
      `The data folder "${folder}" belongs to another user (uid 4242); choose a folder of your own.`,
    );
  });
});
