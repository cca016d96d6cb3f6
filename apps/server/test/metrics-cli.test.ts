// The host's metrics, with the published program: the bundle under plain node, signed in as a
// browser would, a turn of the offline model that calls the Notes example's tool, and a page call
// from the card. `/metrics` on the program's own port answers the Prometheus text format to the
// bearer of METRICS_TOKEN only, and every tool call sent to a source is counted once, a refused
// page call not at all.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { metricSample, type SocketTestClient } from "@mcp-chat-host/host/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  bundle,
  openNotes,
  type RunningBundle,
  scrape,
  signIn,
  startBundle,
} from "./metrics-support";

const token = "metrics-test-token-6f2a9c41d0e7b3a5";

/** GET with a `Host` of the caller's choosing (fetch may not set one): resolves with the status. */
function statusWithHost(url: string, host: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { host, authorization } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.once("error", reject);
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${url} did not answer.`)));
    outgoing.end();
  });
}

let running: RunningBundle | null = null;
let client: SocketTestClient | null = null;

beforeAll(() => {
  expect(existsSync(bundle), "the bundle is built by `npx turbo run build`").toBe(true);
});

afterEach(async () => {
  client?.close();
  client = null;
  await running?.stop();
  running = null;
});

describe("/metrics of the published program", () => {
  it("counts each tool call sent to a source, for the bearer of METRICS_TOKEN only", async () => {
    running = await startBundle([], { METRICS_TOKEN: token });
    const metrics = `${running.origin}/metrics`;

    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${token}`, token]) {
      const refused = await fetch(metrics, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await refused.text()).not.toContain("mcp_chat_host_");
    }
    // A scraper names the node by an address the Host check does not know; the token is enough.
    expect(await statusWithHost(metrics, "node-a.internal:8787", `Bearer ${token}`)).toBe(200);
    expect(await statusWithHost(`${running.origin}/`, "node-a.internal:8787", "")).toBe(421);
    const before = await scrape(metrics, token);
    expect(before).toContain("# TYPE mcp_chat_host_tool_calls_total counter");
    expect(before).toContain("mcp_chat_host_nodejs_eventloop_lag_seconds");

    client = await signIn(running.signIn);
    const instanceId = await openNotes(client, "counted");
    const model = { source: "notes", tool: "open-notes", caller: "model", outcome: "ok" };
    expect(
      metricSample(await scrape(metrics, token), "mcp_chat_host_tool_calls_total", model),
    ).toBe(1);

    // The page saves its notes: one call sent, counted as the page's.
    const saved = await client.request("card:call-tool", {
      instanceId,
      name: "save-notes",
      arguments: { text: "from the page" },
    });
    expect(saved.ok).toBe(true);
    // A tool the card's source does not have is refused by the gate: never sent, never counted.
    const refused = await client.request("card:call-tool", {
      instanceId,
      name: "no-such-tool",
      arguments: {},
    });
    expect(refused.ok).toBe(false);

    const after = await scrape(metrics, token);
    expect(metricSample(after, "mcp_chat_host_tool_calls_total", model)).toBe(1);
    const page = { source: "notes", tool: "save-notes", caller: "page", outcome: "ok" };
    expect(metricSample(after, "mcp_chat_host_tool_calls_total", page)).toBe(1);
    expect(after).not.toContain('tool="no-such-tool"');
    expect(
      metricSample(after, "mcp_chat_host_tool_call_duration_seconds_count", {
        source: "notes",
        caller: "page",
      }),
    ).toBe(1);
  });

  it("reads the token from METRICS_TOKEN_FILE", async () => {
    const tokenFolder = mkdtempSync(join(tmpdir(), "mch-metrics-token-"));
    const tokenFile = join(tokenFolder, "token");
    writeFileSync(tokenFile, `${token}\n`);
    try {
      running = await startBundle([], { METRICS_TOKEN_FILE: tokenFile });
      expect(await scrape(`${running.origin}/metrics`, token)).toContain(
        "mcp_chat_host_tool_calls_total",
      );
    } finally {
      rmSync(tokenFolder, { recursive: true, force: true });
    }
  });

  it("is 404 when the operator did not turn it on", async () => {
    running = await startBundle([], {});
    for (const authorization of [undefined, `Bearer ${token}`]) {
      const response = await fetch(`${running.origin}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("mcp_chat_host_");
    }
  });

  it("does not start on a metrics port in use, and says so in a sentence", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const failed = await startBundle(["--metrics-port", String(port)], {}).then(
        () => "started",
        (error: unknown) => String(error),
      );
      expect(failed).toContain(
        `The metrics port ${port} on 127.0.0.1 is in use; choose another --metrics-port`,
      );
      expect(failed).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
