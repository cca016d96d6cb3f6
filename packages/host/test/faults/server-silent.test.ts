// Fault: an MCP server stops answering (its process is frozen with SIGSTOP: alive, connected,
// silent). The call times out, the connection closes with reason `timeout` (the frozen process is
// killed), the person is told, and the next call reaches a new process.
import { McpClientSession, parseMcpConfig, type McpCloseReason } from "@mcp-chat-host/connection";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../../src/mcp-chat-host";
import { ConnectionSource } from "../../src/sources/connection-source";
import type { SourceFactory } from "../../src/sources/source";
import { exchange, nextChunk, openCard, replyText, startHost, type TestHost } from "../harness";
import { openReportChannel, type ReportChannel } from "./report-channel";

const appServer = fileURLToPath(new URL("./fixtures/app-server.mjs", import.meta.url));
// Short, so the test is quick; long enough that a loaded machine still answers the requests
// that should be answered.
const timeoutSeconds = 2;

let host: TestHost | null = null;
let reports: ReportChannel | null = null;
const started: number[] = [];

afterEach(async () => {
  await host?.close();
  host = null;
  await reports?.close();
  reports = null;
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone: what the host is meant to do.
    }
  }
});

function serverEntry(reportPort: number) {
  const config = parseMcpConfig({
    mcpServers: {
      "fault-app": {
        command: process.execPath,
        args: [appServer],
        env: { FAULT_REPORT_PORT: String(reportPort) },
      },
    },
  });
  const entry = config.servers["fault-app"];
  if (entry === undefined) throw new Error("The fixture entry is missing.");
  return { config, entry };
}

describe("an MCP server that stops answering", () => {
  it("times a page's call out, closes the connection with reason timeout, tells the person, and reconnects", async () => {
    reports = await openReportChannel();
    const channel = reports;
    const { entry } = serverEntry(channel.port);
    const sessions: McpClientSession[] = [];
    const closes: { reason: McpCloseReason; message: string }[] = [];
    // What configSourceFactory builds, with a short request deadline and the close observed.
    const factory: SourceFactory = {
      key: entry.name,
      kind: "connection",
      async open() {
        const session = await McpClientSession.open(entry, { timeout: timeoutSeconds });
        sessions.push(session);
        session.onClose((reason, error) => closes.push({ reason, message: error.message }));
        return new ConnectionSource(session);
      },
    };
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), factory, { onAppCall: () => true });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "show");
    const frozen = await channel.next((event) => event.event === "start");
    started.push(frozen.pid);
    await channel.next((event) => event.tool === "show");

    process.kill(frozen.pid, "SIGSTOP");
    const silent = await client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "echo",
      arguments: {},
    });
    expect(silent).toEqual({
      ok: false,
      error: {
        code: "timeout",
        message:
          "fault-app did not answer in time, so its connection was closed. Try again to reconnect.",
        retryable: true,
        rpcCode: -32603,
      },
    });
    expect(closes).toEqual([{ reason: "timeout", message: "MCP connection ended: timeout" }]);
    // The frozen process was killed with the connection: its report connection ends.
    await channel.next((event) => event.event === "gone" && event.pid === frozen.pid);

    const again = await client.value("card:call-tool", {
      instanceId: card.instanceId,
      name: "echo",
      arguments: { again: true },
    });
    expect(again).toMatchObject({ content: [{ type: "text", text: '{"again":true}' }] });
    const restarted = await channel.next((event) => event.event === "start");
    started.push(restarted.pid);
    expect(restarted.pid).not.toBe(frozen.pid);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]?.state).toBe("idle");
  });

  it("times the model's tool call out: the card is cancelled with the reason and the reply says so", async () => {
    reports = await openReportChannel();
    const channel = reports;
    const { config } = serverEntry(channel.port);
    host = await startHost({
      config,
      toolTimeout: timeoutSeconds,
      session(session) {
        mcpChatHost(session.chat(), "fault-app", { onAppCall: () => true });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const frozen = await channel.next((event) => event.event === "start");
    started.push(frozen.pid);
    process.kill(frozen.pid, "SIGSTOP");

    const done = await exchange(client, "chat-1", "/call show {}");
    const opened = await nextChunk(client, "data-card");
    const failed = await nextChunk(
      client,
      "tool-output-error",
      (chunk) => chunk.toolCallId === opened.toolCallId,
    );
    const told =
      "fault-app did not answer in time, so its connection was closed. Try again to reconnect.";
    expect(failed.errorText).toBe(`The tool call failed: ${told}`);
    expect(failed.cardResult).toBeUndefined();
    expect(done.reply.status).toBe("complete");
    const toolPart = done.reply.parts.find((part) => part.type === "tool");
    expect(toolPart).toMatchObject({
      state: "output-error",
      errorText: `The tool call failed: ${told}`,
      instanceId: opened.card.instanceId,
    });
    expect(replyText(done.reply)).toContain(told);
    const hello = await client.value("session:hello", {});
    expect(hello.current?.cards).toEqual([
      expect.objectContaining({ instanceId: opened.card.instanceId, cancelled: told }),
    ]);

    // The next turn reaches a new process.
    const next = await exchange(client, "chat-1", "/call echo {}");
    expect(next.reply.parts.find((part) => part.type === "tool")).toMatchObject({
      state: "output-available",
    });
    const restarted = await channel.next((event) => event.event === "start");
    started.push(restarted.pid);
    expect(restarted.pid).not.toBe(frozen.pid);
    await channel.next((event) => event.event === "gone" && event.pid === frozen.pid);
  });
});
