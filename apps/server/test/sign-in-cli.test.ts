// `mcp-chat-host sign-in` against a real running server (the command line as a child process, in a
// temporary data folder): the URL it prints signs in once, a second use is refused, the one the
// server printed at start still works; with a trusted header it says sign-in tokens aren't used;
// with no server it says to start one.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { childEnvironment, runCli, type RunningCli, startCli } from "./cli-child";

let folder = "";
let running: RunningCli | null = null;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "mch-sign-in-"));
  const webRoot = join(folder, "web");
  mkdirSync(webRoot);
  writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>test</title>");
});

afterEach(async () => {
  await running?.stop();
  running = null;
  rmSync(folder, { recursive: true, force: true });
});

const data = () => join(folder, "data");

function serverArguments(...extra: string[]): string[] {
  return [
    "--port",
    "0",
    "--data",
    data(),
    "--web-root",
    join(folder, "web"),
    "--no-examples",
    ...extra,
  ];
}

/** Opens a sign-in URL the way a browser's first visit does. */
async function visit(
  url: string,
): Promise<{ status: number; cookie: string | null; text: string }> {
  const response = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
  return {
    status: response.status,
    cookie: response.headers.get("set-cookie"),
    text: await response.text(),
  };
}

// Two servers start here (the published program); on a busy machine each takes a while.
describe("mcp-chat-host sign-in", { timeout: 120_000 }, () => {
  it("prints a new one-time URL of the running server: accepted once, then already used", async () => {
    running = await startCli(serverArguments(), childEnvironment({ MODEL: "offline" }));
    const socket = lstatSync(join(data(), "control.sock"));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);

    const run = await runCli(["sign-in", "--data", data()]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const url = run.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    expect(url).not.toBe(running.signIn);
    expect(new URL(url).origin).toBe(new URL(running.signIn).origin);

    const first = await visit(url);
    expect(first.status).toBe(200);
    expect(first.cookie).toMatch(/HttpOnly/i);
    const second = await visit(url);
    expect(second.status).toBe(401);
    expect(second.text).toContain("This sign-in link was already used");

    // Each run mints another; the URL printed at start is still unused, and works.
    const again = await runCli(["sign-in", "--data", data()]);
    expect(again.stdout.trim()).not.toBe(url);
    expect((await visit(running.signIn)).status).toBe(200);

    await running.stop();
    running = null;
    expect(existsSync(join(data(), "control.sock"))).toBe(false);
  });

  it("says sign-in tokens aren't used when the server takes the user from a trusted header", async () => {
    running = await startCli(
      serverArguments("--trusted-header", "x-forwarded-user", "--trusted-proxy", "127.0.0.1"),
      childEnvironment({ MODEL: "offline" }),
      60_000,
      /Open (http:\/\/127\.0\.0\.1:\d+) through the authenticating proxy/,
    );
    const run = await runCli(["sign-in", "--data", data()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("x-forwarded-user header");
    expect(run.stderr).toContain("sign-in tokens aren't used");
  });

  it("says to start the server when none runs with that data folder", async () => {
    const run = await runCli(["sign-in", "--data", data()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      `No server is running with the data folder ${data()} (nothing answers at ${join(data(), "control.sock")}). Start it (npm start, or mcp-chat-host --data ${data()}); it prints a sign-in URL when it is ready.`,
    );
  });
});
