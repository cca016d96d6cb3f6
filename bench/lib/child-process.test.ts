import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { startNodeChild, waitForOk } from "./child-process";
import { cpuMilliseconds, openFilesLimit, residentBytes } from "./process-stats";

describe("startNodeChild", () => {
  it("resolves with the ready line's match, and stop() ends the child", async () => {
    const running = await startNodeChild({
      args: ["-e", 'console.log("READY 42"); setInterval(() => {}, 1000);'],
      cwd: process.cwd(),
      readyPattern: /READY (\d+)/,
      timeoutMs: 30_000,
    });
    expect(running.ready[1]).toBe("42");
    expect(residentBytes(running.pid)).toBeGreaterThan(1024 * 1024);
    expect(cpuMilliseconds(running.pid)).toBeGreaterThanOrEqual(0);
    await running.stop();
    expect(running.child.exitCode !== null || running.child.signalCode !== null).toBe(true);
  });

  it("rejects with the child's output when it exits before it is ready", async () => {
    await expect(
      startNodeChild({
        args: ["-e", 'console.error("no config"); process.exit(3);'],
        cwd: process.cwd(),
        readyPattern: /READY/,
        timeoutMs: 30_000,
      }),
    ).rejects.toThrow(/exited \(3\)[\s\S]*no config/);
  });

  it("kills a child that is not ready in time", async () => {
    await expect(
      startNodeChild({
        args: ["-e", "setInterval(() => {}, 1000);"],
        cwd: process.cwd(),
        readyPattern: /READY/,
        timeoutMs: 300,
      }),
    ).rejects.toThrow(/not ready within 300 ms/);
  });
});

describe("waitForOk", () => {
  it("resolves once the URL answers 200 and fails with the last status otherwise", async () => {
    let status = 503;
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      // The third request succeeds: the first two see the server still starting.
      if (requests >= 3) status = 200;
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    try {
      await waitForOk(url, { timeoutMs: 10_000, intervalMs: 1 });
      expect(requests).toBe(3);
      status = 500;
      requests = -1_000;
      await expect(waitForOk(url, { timeoutMs: 50, intervalMs: 1 })).rejects.toThrow(/status 500/);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe("openFilesLimit", () => {
  it("reads a positive limit on Linux", () => {
    expect(openFilesLimit()).toBeGreaterThan(0);
  });
});
