import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnTied } from "./tied-process";

const tiedModule = fileURLToPath(new URL("./tied-process.ts", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `pid` is gone, checking every 50 ms for at most `limitMs`. */
async function waitGone(pid: number, limitMs: number): Promise<boolean> {
  for (let waited = 0; waited < limitMs; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe("spawnTied", () => {
  it("stop() ends the server", async () => {
    const tied = spawnTied("sleep", ["600"], { stdio: "ignore" });
    const pid = tied.child.pid ?? 0;
    expect(alive(pid)).toBe(true);
    await tied.stop();
    expect(alive(pid)).toBe(false);
  });

  it("a server does not outlive a test process killed with SIGKILL", async () => {
    const script = [
      `const { spawnTied } = await import(${JSON.stringify(tiedModule)});`,
      `const tied = spawnTied("sleep", ["600"], { stdio: "ignore" });`,
      `console.log("PID " + tied.child.pid);`,
      `setInterval(() => {}, 1000);`,
    ].join("\n");
    const parent = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const pid = await new Promise<number>((resolve, reject) => {
      let output = "";
      parent.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /PID (\d+)/.exec(output);
        if (match?.[1]) resolve(Number(match[1]));
      });
      parent.once("exit", (code) => reject(new Error(`the parent exited (${code}): ${output}`)));
    });
    expect(alive(pid)).toBe(true);
    parent.kill("SIGKILL");
    expect(await waitGone(pid, 10_000)).toBe(true);
  });
});
