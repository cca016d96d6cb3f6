// The real example servers from npm over stdio, configured the way an operator would: a card of
// `server-basic-react` opens with its real view, and `server-system-monitor`'s app-only
// `poll-system-stats` is hidden from the model yet callable from its card. Closing the server
// leaves no child process behind.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHostHandle } from "../src/session/chat";
import { mcpChatHost } from "../src/mcp-chat-host";
import { exchange, openCard, startHost, type TestClient, type TestHost } from "./harness";

const require = createRequire(import.meta.url);

/** The stdio entry point of an example server package (`dist/index.js` beside its main file). */
function entryOf(packageName: string): string {
  return join(dirname(require.resolve(packageName)), "index.js");
}

const basicReact = entryOf("@modelcontextprotocol/server-basic-react");
const systemMonitor = entryOf("@modelcontextprotocol/server-system-monitor");

/** Child processes of this process running one of the example servers. */
function serverChildren(): string[] {
  let listing: string;
  try {
    listing = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], {
      encoding: "utf8",
    });
  } catch {
    // `ps` exits 1 when it lists nothing.
    return [];
  }
  return listing
    .split("\n")
    .filter((line) => line.includes(basicReact) || line.includes(systemMonitor));
}

let host: TestHost;
let client: TestClient;
const handles: ChatHostHandle[] = [];

beforeAll(async () => {
  host = await startHost({
    config: {
      mcpServers: {
        "basic-react": { command: process.execPath, args: [basicReact, "--stdio"] },
        "system-monitor": { command: process.execPath, args: [systemMonitor, "--stdio"] },
      },
    },
    session(session) {
      handles.push(mcpChatHost(session.chat(), ["basic-react", "system-monitor"]));
    },
  });
  client = await host.connect();
  await client.value("session:hello", {});
  await handles[0]!.ready;
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe("the real example servers over stdio", () => {
  it("opens a basic-react card whose attach gives the real view", async () => {
    const card = await openCard(client, "chat-1", "get-time");
    expect(card).toMatchObject({ source: "basic-react", tool: "get-time", chatId: "chat-1" });
    const text = (card.result?.["content"] as { text: string }[])[0]!.text;
    expect(Number.isNaN(Date.parse(text))).toBe(false);
    const attach = await client.value("card:attach", { instanceId: card.instanceId });
    expect(attach.page.html).toMatch(/^<!doctype html>/i);
    expect(attach.page.html?.length).toBeGreaterThan(10_000);
    expect(attach.tool).toMatchObject({ name: "get-time", title: "Get Time" });
    expect(attach.toolResult).toEqual(card.result);
  });

  it("hides poll-system-stats from the model and lets a system-monitor card call it", async () => {
    const tools = handles[0]!.tools.map((tool) => `${tool.source}/${tool.name}`);
    expect(tools).toContain("basic-react/get-time");
    expect(tools).toContain("system-monitor/get-system-info");
    expect(tools).not.toContain("system-monitor/poll-system-stats");
    const answer = await exchange(client, "chat-1", "hello");
    const toolLine = answer.text.split("\n").find((line) => line.startsWith("Tools I can call:"));
    expect(toolLine).toContain("get-system-info");
    expect(toolLine).not.toContain("poll-system-stats");
    // Asked for by name, the model has no such tool.
    const refused = await exchange(client, "chat-1", "/call poll-system-stats");
    expect(refused.text).toMatch(/^I have no tool named "poll-system-stats"\./);

    const card = await openCard(client, "chat-1", "get-system-info");
    expect(card.source).toBe("system-monitor");
    const attach = await client.value("card:attach", { instanceId: card.instanceId });
    expect(attach.appTools).toContain("poll-system-stats");
    const stats = await client.value("card:call-tool", {
      instanceId: card.instanceId,
      name: "poll-system-stats",
      arguments: {},
    });
    expect(stats["structuredContent"]).toEqual(expect.any(Object));
    expect(stats["isError"]).not.toBe(true);
    // A basic-react card can't reach the system monitor's tool.
    const other = await openCard(client, "chat-1", "get-time");
    expect(
      await client.request("card:call-tool", {
        instanceId: other.instanceId,
        name: "poll-system-stats",
        arguments: {},
      }),
    ).toMatchObject({
      ok: false,
      error: { message: 'The app can\'t call the tool "poll-system-stats".' },
    });
  });

  it("closes every server process when the host closes", async () => {
    expect(serverChildren()).toHaveLength(2);
    await host.close();
    expect(serverChildren()).toEqual([]);
  });
});
