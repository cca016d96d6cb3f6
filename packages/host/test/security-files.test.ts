// Another local user must not read the conversations. A real host on a real
// SQLite file, under umask 000 (the loosest): its data folder is 0700 and the database with its
// -wal and -shm files 0600 after start and after writes; a store left readable by an older run is
// tightened at start, and the log says what was changed.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { exchange, greeterApp, openCard, startHost, type TestHost } from "./harness";

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

/** The host's warnings about file modes. */
const modeWarnings = (testHost: TestHost) =>
  testHost.logs.filter(
    (line) => line.level === 40 && /modes|open to other users/.test(line.msg ?? ""),
  );

let host: TestHost | null = null;
let root: string;
let previousUmask: number;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "mcp-chat-host-files-"));
  previousUmask = process.umask(0o000);
});

afterEach(async () => {
  await host?.close();
  host = null;
  process.umask(previousUmask);
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("the data files' modes", () => {
  it("makes a new data folder 0700 and every file SQLite writes in it 0600", async () => {
    const folder = join(root, "data");
    const database = join(folder, "mcp-chat-host.db");
    host = await startHost({
      store: `sqlite:${database}`,
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    expect(modeOf(folder)).toBe("0700");
    const client = await host.connect();
    await client.value("session:hello", {});
    await exchange(client, "chat-1", "Hello");
    await openCard(client, "chat-1", "greet", { name: "Ada" });

    const files = readdirSync(folder).sort();
    expect(files).toEqual(["mcp-chat-host.db", "mcp-chat-host.db-shm", "mcp-chat-host.db-wal"]);
    for (const file of files) expect([file, modeOf(join(folder, file))]).toEqual([file, "0600"]);
    expect(modeOf(folder)).toBe("0700");
    // Nothing needed tightening after the writes: SQLite made its -wal and -shm files with the
    // database file's mode.
    expect(modeWarnings(host)).toEqual([]);
  });

  it("tightens the files of a store an older run left readable, and logs what it changed", async () => {
    const folder = join(root, "data");
    mkdirSync(folder, { mode: 0o755 });
    const database = join(folder, "mcp-chat-host.db");
    // An older run, still holding its connection (as one killed with -9 leaves it): its database,
    // -wal and -shm files are 0644.
    const older = new Database(database);
    older.pragma("journal_mode = WAL");
    older.exec("CREATE TABLE left_behind (value TEXT); INSERT INTO left_behind VALUES ('secret');");
    const paths = [database, `${database}-wal`, `${database}-shm`];
    for (const path of paths) chmodSync(path, 0o644);
    try {
      host = await startHost({ store: `sqlite:${database}` });
      for (const path of paths) expect([path, modeOf(path)]).toEqual([path, "0600"]);
      const client = await host.connect();
      await client.value("conversation:create", { title: "After" });
      for (const path of paths) expect([path, modeOf(path)]).toEqual([path, "0600"]);
    } finally {
      older.close();
    }
    expect(modeWarnings(host)).toEqual([
      expect.objectContaining({
        msg: "the data folder is open to other users; the host's files in it are private, but run `chmod 700` on it or choose another folder",
        folder,
        mode: "0755",
      }),
      expect.objectContaining({
        msg: "the data files were readable by other users; their modes were tightened",
        changes: paths.map((path) => ({ path, from: "0644", to: "0600" })),
      }),
    ]);
  });
});
