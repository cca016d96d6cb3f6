// Tool names the model is given, through a real server and socket: two sources offering the same
// name are both reachable (each call reaches its own source), a name providers refuse is renamed
// instead of breaking the chat, the browser is told about every rename once, and the stored call
// keeps the tool's own name and source.
import { startProviderStandIn, toolNamesOf, type ProviderStandIn } from "@mcp-chat-host/testing";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { serveMcpOverHttp, type HttpMcpServer } from "../src/sources/fixtures/serve-mcp-over-http";
import { mcpClient } from "../src/sources/mcp-client";
import { clockApp, exchange, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
let server: HttpMcpServer | null = null;
let standIn: ProviderStandIn | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
  await server?.close();
  server = null;
  await standIn?.close();
  standIn = null;
});

/** A real MCP server whose tools are named in scripts without Latin letters. */
function oddNamesServer(calls: string[]): McpServer {
  const mcp = new McpServer({ name: "odd-names", version: "1.0.0" });
  for (const [name, title] of [
    ["時刻", "Current time"],
    ["天気", undefined],
  ] as const) {
    mcp.registerTool(
      name,
      { description: `Answers ${name}.`, ...(title === undefined ? {} : { title }) },
      () => {
        calls.push(name);
        return { content: [{ type: "text", text: `${name}: noon.` }] };
      },
    );
  }
  return mcp;
}

describe("tool names for models", () => {
  it("offers both tools of one name, each reaching its own source, and says so once", async () => {
    const calls: string[] = [];
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), [
          clockApp("basic-react", "get-time", calls),
          clockApp("basic-vanillajs", "get-time", calls),
          clockApp("files", "files.read", calls),
        ]);
      },
    });
    const client = await host.connect();
    const announced = client.next("chat:tools");
    await client.value("session:hello", {});
    const { tools } = await announced;
    expect(tools).toEqual([
      expect.objectContaining({
        modelName: "basic-react__get-time",
        name: "get-time",
        source: "basic-react",
        renamed: expect.stringContaining("also offers a tool named") as unknown,
      }),
      expect.objectContaining({
        modelName: "basic-vanillajs__get-time",
        source: "basic-vanillajs",
      }),
      expect.objectContaining({
        modelName: "files__files_read",
        name: "files.read",
        renamed: expect.stringContaining("not one every model accepts") as unknown,
      }),
    ]);

    const second = await exchange(client, "chat-1", "/call basic-vanillajs__get-time {}");
    expect(second.reply.status).toBe("complete");
    expect(second.text).toContain("It is noon at basic-vanillajs.");
    const first = await exchange(client, "chat-1", "/call basic-react__get-time {}");
    expect(first.text).toContain("It is noon at basic-react.");
    const dotted = await exchange(client, "chat-1", "/call files__files_read {}");
    expect(dotted.reply.status).toBe("complete");
    expect(calls).toEqual(["basic-vanillajs/get-time", "basic-react/get-time", "files/files.read"]);

    // The stored call keeps the tool's own name and its source, and the model's name beside it.
    expect(second.reply.parts[0]).toEqual({
      type: "tool",
      toolCallId: expect.any(String) as unknown,
      name: "get-time",
      source: "basic-vanillajs",
      modelName: "basic-vanillajs__get-time",
      state: "output-available",
      input: {},
      output: "It is noon at basic-vanillajs.",
    });
    // Announced once: the list did not change between turns.
    expect(client.received.filter((entry) => entry.event === "chat:tools")).toHaveLength(1);
  });

  it("keeps a tool's own name when it is valid and no other source has it", async () => {
    const calls: string[] = [];
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), [clockApp("clock", "get-time", calls)]);
      },
    });
    const client = await host.connect();
    const announced = client.next("chat:tools");
    await client.value("session:hello", {});
    expect((await announced).tools).toEqual([
      { modelName: "get-time", name: "get-time", source: "clock" },
    ]);
    const done = await exchange(client, "chat-1", "/call get-time {}");
    expect(done.reply.parts[0]).toEqual({
      type: "tool",
      toolCallId: expect.any(String) as unknown,
      name: "get-time",
      source: "clock",
      state: "output-available",
      input: {},
      output: "It is noon at clock.",
    });
  });

  it("gives a tool named in a script without Latin letters a name the model can read and call", async () => {
    const calls: string[] = [];
    server = await serveMcpOverHttp(() => oddNamesServer(calls));
    standIn = await startProviderStandIn();
    const served = server;
    host = await startHost({
      model: "anthropic:claude-stand-in",
      env: { ANTHROPIC_API_KEY: standIn.apiKey, ANTHROPIC_BASE_URL: standIn.anthropicBaseURL },
      session(session) {
        mcpChatHost(session.chat(), mcpClient(served.url, { name: "odd-names" }));
      },
    });
    const client = await host.connect();
    const announced = client.next("chat:tools");
    await client.value("session:hello", {});
    const { tools } = await announced;
    expect(tools.map((tool) => tool.name)).toEqual(["時刻", "天気"]);
    const time = tools[0]!;
    expect(time.modelName).toMatch(/^odd-names__tool-[0-9a-f]{8}$/);
    expect(tools[1]!.modelName).toMatch(/^odd-names__tool-[0-9a-f]{8}$/);
    expect(tools[1]!.modelName).not.toBe(time.modelName);
    expect(time.renamed).toContain('The name "時刻" is not one every model accepts');

    const done = await exchange(client, "chat-1", `call ${time.modelName} {}`);
    expect(done.reply.status).toBe("complete");
    expect(calls).toEqual(["時刻"]);
    // On the wire: the name providers accept, and the description says the tool's own name.
    const [request] = standIn.requests;
    expect(toolNamesOf(request!)).toEqual(tools.map((tool) => tool.modelName));
    const definitions = JSON.stringify((request!.body as { tools?: unknown }).tools);
    expect(definitions).toContain('(Its own name is \\"時刻\\" (Current time).) Answers 時刻.');
    expect(definitions).toContain('(Its own name is \\"天気\\".) Answers 天気.');
  });
});
