// With the real command line: `--server-box` (default auto). The program says at start whether
// stdio servers are boxed; in auto, where bubblewrap is missing, it warns that they run unboxed
// and how to install it; `required` refuses to start then, and refuses an entry's "box": false.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { childEnvironment, runCli, type RunningCli, startCli } from "./cli-child";

let folder = "";
let running: RunningCli | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder, with an empty one to serve as a PATH on which there is no bwrap. */
function folders(): { data: string; noBwrap: string } {
  folder = mkdtempSync(join(tmpdir(), "mch-server-box-cli-"));
  const noBwrap = join(folder, "bin");
  return { data: join(folder, "data"), noBwrap: mkdtempSync(noBwrap) };
}

describe("--server-box", () => {
  it("boxes the stdio servers by default where bubblewrap works, and says so at start", async () => {
    const { data } = folders();
    running = await startCli(
      ["--port", "0", "--data", data],
      childEnvironment({ MODEL: "offline", LOG_LEVEL: "info" }),
    );
    expect(running.output()).toContain("Each stdio MCP server runs in a box of its own");
    expect(running.output()).not.toContain("UNBOXED");
  });

  it("in auto, where bubblewrap is missing, starts and warns that servers run unboxed and how to install it", async () => {
    const { data, noBwrap } = folders();
    running = await startCli(
      ["--port", "0", "--data", data],
      childEnvironment({ MODEL: "offline", PATH: noBwrap }),
    );
    expect(running.output()).toContain("Stdio MCP servers run UNBOXED");
    expect(running.output()).toContain("sudo apt-get install bubblewrap");
  });

  it("required, where bubblewrap is missing, refuses to start and says what to do", async () => {
    const { data, noBwrap } = folders();
    const run = await runCli(
      ["--port", "0", "--data", data, "--server-box", "required"],
      childEnvironment({ MODEL: "offline", PATH: noBwrap }),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--server-box required: stdio MCP servers cannot be boxed here");
    expect(run.stderr).toContain("sudo apt-get install bubblewrap");
    expect(run.stdout).not.toContain("is ready");
  });

  it('required refuses a configuration whose stdio entry sets "box": false', async () => {
    const { data } = folders();
    const config = join(folder, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { loose: { command: process.execPath, args: ["server.mjs"], box: false } },
      }),
    );
    const run = await runCli(
      ["--port", "0", "--data", data, "--config", config, "--server-box", "required"],
      childEnvironment({ MODEL: "offline" }),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      '--server-box required runs every stdio MCP server in a box, but "loose" sets "box": false',
    );
  });
});
