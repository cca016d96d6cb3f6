// The main metric families of the published program carry values after a turn
// that calls a tool, a page call the person approves and one the gate refuses, served on a
// listener of their own (`--metrics-port`, no token) and on the main port (METRICS_TOKEN) alike.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

const token = "metrics-families-token-0b8e47d1c2a9f356";

let running: RunningBundle | null = null;
let client: SocketTestClient | null = null;
let configFolder = "";

beforeAll(() => {
  expect(existsSync(bundle), "the bundle is built by `npx turbo run build`").toBe(true);
});

afterEach(async () => {
  client?.close();
  client = null;
  await running?.stop();
  running = null;
  if (configFolder !== "") rmSync(configFolder, { recursive: true, force: true });
  configFolder = "";
});

describe("the metric families of the published program", () => {
  it("have values after a turn with a tool call, an approved page call and a refused one", async () => {
    // The page's Save asks the person (the dialog is answered below); every other call is allowed.
    configFolder = mkdtempSync(join(tmpdir(), "mch-metrics-config-"));
    const config = join(configFolder, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {},
        host: {
          onAppCall: { default: "allow", rules: [{ tool: "save-notes", verdict: "ask" }] },
        },
      }),
    );
    running = await startBundle(["--config", config, "--metrics-port", "0"], {
      METRICS_TOKEN: token,
    });
    const listener = running.metricsUrl;
    expect(listener).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    if (listener === undefined) return;
    // The own listener needs no token and serves nothing else.
    expect((await fetch(new URL("/", listener))).status).toBe(404);

    client = await signIn(running.signIn);
    const instanceId = await openNotes(client, "families");

    const asked = client.next("approval:request", (request) => request.tool === "save-notes");
    const saving = client.request("card:call-tool", {
      instanceId,
      name: "save-notes",
      arguments: { text: "approved" },
    });
    const { approvalId } = await asked;
    await client.value("approval:answer", { approvalId, decision: "allow-once" });
    expect((await saving).ok).toBe(true);
    const refused = await client.request("card:call-tool", {
      instanceId,
      name: "no-such-tool",
      arguments: {},
    });
    expect(refused.ok).toBe(false);

    const text = await scrape(listener);
    // The main port serves the same registry to the token's bearer.
    const viaToken = await scrape(`${running.origin}/metrics`, token);
    expect(metricSample(viaToken, "mcp_chat_host_turns_total", { outcome: "complete" })).toBe(
      metricSample(text, "mcp_chat_host_turns_total", { outcome: "complete" }),
    );

    expect(metricSample(text, "mcp_chat_host_sessions")).toBe(1);
    expect(metricSample(text, "mcp_chat_host_sockets")).toBe(1);
    expect(metricSample(text, "mcp_chat_host_turns_total", { outcome: "complete" })).toBe(1);
    // `/call` runs the tool in the first step and answers in the second.
    expect(metricSample(text, "mcp_chat_host_model_requests_total", { provider: "offline" })).toBe(
      2,
    );
    expect(text).toContain("# TYPE mcp_chat_host_model_failures_total counter");
    expect(
      metricSample(text, "mcp_chat_host_tool_calls_total", {
        source: "notes",
        tool: "open-notes",
        caller: "model",
        outcome: "ok",
      }),
    ).toBe(1);
    expect(
      metricSample(text, "mcp_chat_host_tool_call_duration_seconds_count", {
        source: "notes",
        caller: "model",
      }),
    ).toBe(1);
    expect(metricSample(text, "mcp_chat_host_page_calls_total", { verdict: "allowed" })).toBe(1);
    expect(metricSample(text, "mcp_chat_host_page_calls_total", { verdict: "refused" })).toBe(1);
    expect(
      metricSample(text, "mcp_chat_host_page_call_duration_seconds_count", {
        source: "notes",
        verdict: "allowed",
      }),
    ).toBe(1);
    expect(metricSample(text, "mcp_chat_host_approvals_asked_total")).toBe(1);
    expect(
      metricSample(text, "mcp_chat_host_approvals_answered_total", { answer: "allow-once" }),
    ).toBe(1);
    // The turn stored the person's message and the reply.
    expect(
      metricSample(text, "mcp_chat_host_store_operation_duration_seconds_count", {
        operation: "appendMessage",
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toContain("# TYPE mcp_chat_host_store_operation_failures_total counter");
    expect(metricSample(text, "mcp_chat_host_dependency_up", { dependency: "database" })).toBe(1);
    // No Redis in this run: no redis series.
    expect(text).not.toContain('dependency="redis"');
    // Node's default metrics, the event-loop delay among them, under the same prefix.
    expect(text).toContain("mcp_chat_host_nodejs_eventloop_lag_p99_seconds");
    expect(metricSample(text, "mcp_chat_host_process_resident_memory_bytes")).toBeGreaterThan(0);
    // Every family carries the prefix, and no label carries an id.
    for (const line of text.split("\n").filter((entry) => entry !== "" && !entry.startsWith("#"))) {
      expect(line).toMatch(/^mcp_chat_host_/);
    }
    expect(text).not.toContain(instanceId);
  });
});
