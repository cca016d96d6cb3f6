// With the real command line: a config whose server is named like an example app
// (`notes`) starts sessions that work. The operator's server wins: it is started for the session
// and the example `notes` is not offered, which the log says once, at start.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { fileAppears } from "./program-waits";
import { childEnvironment, type RunningCli, startCli } from "./cli-child";

const fixture = fileURLToPath(new URL("./fixtures/environment-server.mjs", import.meta.url));

let folder = "";
let running: RunningCli | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
});

interface ChatTools {
  chatId: string;
  tools: { name: string; source: string }[];
}

/** Signs in as a browser would and says hello; returns the hello's answer and the chat's tools. */
async function openSession(signInUrl: string): Promise<{ ok: boolean; tools: ChatTools }> {
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
    auth: { tabId: "example-clash-test", binding },
    timeout: 10_000,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const tools = new Promise<ChatTools>((resolve) => socket.once("chat:tools", resolve));
    const hello = (await socket.timeout(30_000).emitWithAck("session:hello", {})) as {
      ok: boolean;
    };
    return { ok: hello.ok, tools: await tools };
  } finally {
    socket.close();
  }
}

describe("a configured server named like an example app", () => {
  it("wins over the example: sessions start, the server runs, and the log says so once", async () => {
    folder = mkdtempSync(join(tmpdir(), "mch-example-clash-"));
    const report = join(folder, "report.json");
    const config = join(folder, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({
        // The report is written beside the config: the server's box lets it write there.
        mcpServers: {
          notes: { command: process.execPath, args: [fixture, report], box: { write: [folder] } },
        },
      }),
    );
    running = await startCli(
      ["--port", "0", "--data", join(folder, "data"), "--config", config],
      childEnvironment({ MODEL: "offline" }),
    );
    const session = await openSession(running.signIn);
    expect(session.ok).toBe(true);
    // The operator's `notes` (which lists no tools) started; the example's open-notes is not
    // offered, and the other examples still are.
    await fileAppears(report, 30_000);
    const names = session.tools.tools.map((tool) => tool.name);
    expect(names).not.toContain("open-notes");
    expect(names).toContain("show-tasks");
    const said = running
      .output()
      .split("\n")
      .filter((line) => line.includes('The example app \\"notes\\" is not offered'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('the config names a server \\"notes\\"');
  });
});
