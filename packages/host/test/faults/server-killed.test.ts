// Fault: the process of an MCP server (a configured stdio server, shared by every session as the
// default is) is killed while a card's page waits for one of its tool calls. The page gets a clear
// error, the other cards and sessions keep working, and the next call starts the server again.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../../src/mcp-chat-host";
import { exchange, greeterApp, openCard, startHost, type TestHost } from "../harness";
import { openReportChannel, type ReportChannel } from "./report-channel";

const appServer = fileURLToPath(new URL("./fixtures/app-server.mjs", import.meta.url));

let host: TestHost | null = null;
let reports: ReportChannel | null = null;
const started: number[] = [];

afterEach(async () => {
  await host?.close();
  host = null;
  await reports?.close();
  reports = null;
  // Anything the host failed to stop is stopped here, so a failure cannot leak processes.
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone: what the host is meant to do.
    }
  }
});

describe("an MCP server process killed during a card's tool call", () => {
  it("answers the page with a clear error, keeps other cards and sessions working, and reconnects", async () => {
    reports = await openReportChannel();
    const channel = reports;
    const counter = { calls: [] as string[] };
    host = await startHost({
      sessionGraceMs: 30_000,
      config: {
        mcpServers: {
          "fault-app": {
            command: process.execPath,
            args: [appServer],
            env: { FAULT_REPORT_PORT: String(channel.port) },
          },
        },
      },
      session(session) {
        mcpChatHost(session.chat(), [greeterApp(counter), "fault-app"], {
          onAppCall: () => true,
        });
      },
    });
    const first = await host.connect({ tabId: "tab-a" });
    const second = await host.connect({ tabId: "tab-b" });
    await first.value("session:hello", {});
    await second.value("session:hello", {});
    const serverStart = await channel.next((event) => event.event === "start");
    started.push(serverStart.pid);

    const faultCard = await openCard(first, "chat-1", "show");
    const greeterCard = await openCard(first, "chat-1", "greet", { name: "Ada" });
    const otherFaultCard = await openCard(second, "chat-1", "show");
    const otherGreeterCard = await openCard(second, "chat-1", "greet", { name: "Bo" });
    // One process for both sessions (stdio servers are shared by the process by default).
    expect(channel.events.filter((event) => event.event === "start")).toHaveLength(1);

    const hanging = first.request("card:call-tool", {
      instanceId: faultCard.instanceId,
      name: "hang",
      arguments: {},
    });
    await channel.next((event) => event.tool === "hang");
    process.kill(serverStart.pid, "SIGKILL");

    const failed = await hanging;
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.code).toBe("closed");
    expect(failed.error.rpcCode).toBe(-32603);
    expect(failed.error.retryable).toBe(true);
    expect(failed.error.message).toMatch(/"fault-app" exited \(signal SIGKILL\)/);
    await channel.next((event) => event.event === "gone" && event.pid === serverStart.pid);
    const audit = await host.server.store.listAudit({
      conversationId: faultCard.conversationId!,
    });
    expect(audit.find((entry) => entry.tool === "hang")).toMatchObject({
      verdict: "failed",
      reason: expect.stringMatching(/exited/),
    });

    // The other cards of this session and the other session are untouched.
    await expect(
      first.value("card:call-tool", {
        instanceId: greeterCard.instanceId,
        name: "set-name",
        arguments: { name: "Cy" },
      }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: "Name set to Cy." }] });
    await expect(
      second.value("card:call-tool", {
        instanceId: otherGreeterCard.instanceId,
        name: "set-name",
        arguments: { name: "Di" },
      }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: "Name set to Di." }] });
    const chatAfter = await exchange(second, "chat-1", "hello");
    expect(chatAfter.reply.status).toBe("complete");

    // The next call to the server opens a new connection (a new process) and is answered, for
    // the card whose call failed and for the other session's card alike.
    await expect(
      first.value("card:call-tool", {
        instanceId: faultCard.instanceId,
        name: "echo",
        arguments: { again: true },
      }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: '{"again":true}' }] });
    const restarted = await channel.next((event) => event.event === "start");
    started.push(restarted.pid);
    expect(restarted.pid).not.toBe(serverStart.pid);
    await expect(
      second.value("card:call-tool", {
        instanceId: otherFaultCard.instanceId,
        name: "echo",
        arguments: { other: true },
      }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: '{"other":true}' }] });
    expect(channel.events.filter((event) => event.event === "start")).toHaveLength(2);
    expect(
      channel.events.filter((event) => event.event === "call").map((event) => event.tool),
    ).toEqual(["show", "show", "hang", "echo", "echo"]);
    expect(counter.calls).toEqual(["greet:Ada", "greet:Bo", "set-name:Cy", "set-name:Di"]);
  });
});
