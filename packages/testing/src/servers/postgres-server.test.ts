import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { findPostgresBinaries, startPostgres, type RunningPostgres } from "./postgres-server";

const run = promisify(execFile);

/** Runs SQL through Debian's psql against the URL; returns its unaligned output. */
async function sql(url: string, statement: string): Promise<string> {
  const psql = join(findPostgresBinaries(), "psql");
  const { stdout } = await run(psql, [
    "-X",
    "-A",
    "-t",
    "-v",
    "ON_ERROR_STOP=1",
    "-c",
    statement,
    url,
  ]);
  return stdout.trim();
}

describe("startPostgres", () => {
  let server: RunningPostgres | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("serves a fresh cluster on 127.0.0.1, keeps its data across restarts and crashes, and leaves nothing", async () => {
    server = await startPostgres();
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    const url = await server.createDatabase("kept");
    expect(url).toBe(`postgres://postgres@127.0.0.1:${server.port}/kept`);
    await sql(url, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('before')");
    expect(await sql(server.url, "SHOW listen_addresses")).toBe("127.0.0.1");

    await server.restart();
    await sql(url, "INSERT INTO notes VALUES ('after a restart')");
    await server.stopAbruptly();
    await expect(sql(url, "SELECT 1")).rejects.toThrow();
    await server.restart();
    expect(await sql(url, "SELECT text FROM notes ORDER BY text")).toBe("after a restart\nbefore");

    const folder = server.folder;
    expect(existsSync(join(folder, "data", "PG_VERSION"))).toBe(true);
    await server.stop();
    server = undefined;
    expect(existsSync(folder)).toBe(false);
    await expect(sql(url, "SELECT 1")).rejects.toThrow();
  });

  it("refuses a database name that is not a plain identifier", async () => {
    server = await startPostgres();
    await expect(server.createDatabase("drop; table")).rejects.toThrow(/not a database name/);
    expect(await server.createDatabase()).toMatch(/\/test_\d+_\d+$/);
  });
});
