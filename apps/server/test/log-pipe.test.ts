// The published program whose log reader stops reading, then goes away: the
// host keeps answering while its stdout pipe is full, moves its log to stderr on EPIPE, and
// SIGTERM still drains and exits within its timeout.
import { request } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@mcp-chat-host/testing";
import { afterEach, describe, expect, it } from "vitest";
import { exitWithin, waitForStatus } from "./program-waits";
import { spawnProgram } from "./cli-child";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** One request the host refuses (wrong Host header), and so logs as a warning; its status. */
function refusedRequest(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        path: "/",
        headers: { host: "elsewhere.example" },
        timeout: 5_000,
      },
      (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.once("timeout", () => outgoing.destroy(new Error("no answer within 5 s")));
    outgoing.once("error", reject);
    outgoing.end();
  });
}

describe("the published program with a log reader that went away", () => {
  it("keeps answering while stdout is full, and SIGTERM exits within the drain timeout after EPIPE", async () => {
    const data = mkdtempSync(join(tmpdir(), "log-pipe-"));
    folders.push(data);
    const port = await freePort();
    const child = spawnProgram(
      ["--port", String(port), "--data", data, "--no-examples", "--drain-timeout", "2"],
      { PATH: process.env["PATH"] ?? "", HOME: data, LOG_LEVEL: "debug" },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    // stdout is a pipe nobody reads: paused, it fills (64 KiB in the kernel, a little in Node).
    child.stdout?.pause();
    try {
      await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200);
      // About 250 bytes of log each: far more than the pipe holds. Every answer must come, each
      // within 5 s, while nobody reads (a blocking log write would stop the event loop here).
      for (let batch = 0; batch < 40; batch += 1) {
        const statuses = await Promise.all(Array.from({ length: 50 }, () => refusedRequest(port)));
        expect(statuses.every((status) => status === 421)).toBe(true);
      }
      const healthz = await fetch(`http://127.0.0.1:${port}/healthz`, {
        signal: AbortSignal.timeout(2_000),
      });
      expect(healthz.status).toBe(200);

      // The reader goes away; the next lines meet EPIPE and the log moves to stderr, noted once.
      child.stdout?.destroy();
      for (let attempt = 0; attempt < 100 && !stderr.includes("EPIPE"); attempt += 1) {
        await refusedRequest(port);
      }
      expect(stderr).toContain(
        "Writing the log to stdout failed (EPIPE); the log goes to stderr from now on.",
      );
      expect(stderr.split("Writing the log to stdout failed").length - 1).toBe(1);

      const sent = Date.now();
      child.kill("SIGTERM");
      const exit = await exitWithin(child, 8_000);
      expect(exit, `no exit within 8 s of SIGTERM; stderr:\n${stderr.slice(-2_000)}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(Date.now() - sent).toBeLessThan(2_000 + 5_000);
      expect(stderr).toContain('"msg":"shutting down"');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 90_000);

  it("exits within the drain timeout on SIGTERM while stdout is still full and unread", async () => {
    const data = mkdtempSync(join(tmpdir(), "log-pipe-"));
    folders.push(data);
    const port = await freePort();
    const child = spawnProgram(
      ["--port", String(port), "--data", data, "--no-examples", "--drain-timeout", "2"],
      { PATH: process.env["PATH"] ?? "", HOME: data, LOG_LEVEL: "debug" },
    );
    child.stdout?.pause();
    try {
      await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200);
      for (let batch = 0; batch < 40; batch += 1) {
        await Promise.all(Array.from({ length: 50 }, () => refusedRequest(port)));
      }
      child.kill("SIGTERM");
      expect(await exitWithin(child, 8_000)).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 90_000);

  it("writes the log to --log-file (owner only), leaving stdout to the sign-in URL", async () => {
    const data = mkdtempSync(join(tmpdir(), "log-file-"));
    folders.push(data);
    const port = await freePort();
    const logFile = join(data, "host.log");
    const child = spawnProgram(
      [
        "--port",
        String(port),
        "--data",
        join(data, "data"),
        "--no-examples",
        "--log-file",
        logFile,
      ],
      { PATH: process.env["PATH"] ?? "", HOME: data, LOG_LEVEL: "info" },
    );
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    try {
      await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200);
      expect(await refusedRequest(port)).toBe(421);
      child.kill("SIGTERM");
      expect(await exitWithin(child, 15_000)).toEqual({ code: 0, signal: null });
      expect(stdout).toContain("?token=");
      expect(stdout).not.toContain('"level"');
      const lines = readFileSync(logFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.map((line: { msg: string }) => line.msg)).toEqual(
        expect.arrayContaining(["mcp-chat-host is listening", "shutting down"]),
      );
      expect(statSync(logFile).mode & 0o777).toBe(0o600);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
