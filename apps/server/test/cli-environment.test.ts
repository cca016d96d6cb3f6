// Secrets stay out of the servers the host starts, with the real command line as a child process:
// the model keys and other secrets are in its environment at start; a stdio MCP server it starts
// for a session reports what it can see, in its own environment and in /proc/<host pid>/environ on
// Linux.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { fileAppears } from "./program-waits";
import { childEnvironment, type RunningCli, startCli } from "./cli-child";

const fixture = fileURLToPath(new URL("./fixtures/environment-server.mjs", import.meta.url));

const secrets = {
  ANTHROPIC_API_KEY: "sk-ant-test-value-4f1c",
  OPENAI_API_KEY: "sk-openai-test-value-9d2e",
  OPENAI_COMPATIBLE_API_KEY: "local-test-value-77aa",
  SESSION_SECRET: "session-secret-test-value-5b5b-shared-by-nodes",
  GITHUB_TOKEN: "ghp_test_value_0c0c",
};

let folder = "";
let running: RunningCli | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
});

/** Signs in as a browser would and says hello, which starts the session and its servers. */
async function openSession(signInUrl: string): Promise<void> {
  const response = await fetch(signInUrl, { redirect: "manual" });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(
    await response.text(),
  )?.[1];
  const origin = new URL(signInUrl).origin;
  const socket = io(origin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie, origin },
    auth: { tabId: "environment-test", binding },
    timeout: 10_000,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const hello = (await socket.timeout(30_000).emitWithAck("session:hello", {})) as {
      ok: boolean;
    };
    expect(hello.ok).toBe(true);
  } finally {
    socket.close();
  }
}

describe("the command line's secrets", () => {
  it("reach no stdio server: not in its environment, and on Linux not in the host's /proc environ", async () => {
    folder = mkdtempSync(join(tmpdir(), "mch-cli-environment-"));
    const webRoot = join(folder, "web");
    const report = join(folder, "report.json");
    const config = join(folder, "servers.json");
    mkdirSync(webRoot);
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>test</title>");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { environment: { command: process.execPath, args: [fixture, report] } },
      }),
    );
    running = await startCli(
      [
        "--port",
        "0",
        "--data",
        join(folder, "data"),
        "--web-root",
        webRoot,
        "--config",
        config,
        "--no-examples",
        // Unboxed: what a server sees where it can read the host's /proc (in a box it sees no
        // host process at all, test/server-box-cli.test.ts and the connection's server box tests).
        "--server-box",
        "off",
      ],
      childEnvironment({ MODEL: "offline", ...secrets }),
    );
    await openSession(running.signIn);
    await fileAppears(report, 30_000);
    const seen = JSON.parse(await readFile(report, "utf8")) as {
      env: Record<string, string>;
      parentPid: number;
      parentEnviron: string[] | { unreadable: string };
    };

    // The server's own environment: the small default one, no secret.
    expect(seen.env["PATH"]).toBe(process.env["PATH"]);
    for (const [name, value] of Object.entries(secrets)) {
      expect(seen.env[name], name).toBeUndefined();
      expect(JSON.stringify(seen.env)).not.toContain(value);
    }
    // Its parent is the host, whose start-time environment it can read on Linux: the values
    // were wiped from it.
    expect(seen.parentPid).toBe(running.pid);
    if (process.platform === "linux") {
      expect(Array.isArray(seen.parentEnviron)).toBe(true);
      const environ = (seen.parentEnviron as string[]).join("\n");
      expect(environ).toContain("MODEL=offline"); // it is readable, and the rest is intact
      for (const [name, value] of Object.entries(secrets)) {
        expect(environ, name).not.toContain(value);
      }
    }
  });
});
