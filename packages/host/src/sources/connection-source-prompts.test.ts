// Prompts through a configured connection (`McpClientSession` under `ConnectionSource`) to a real
// MCP server over Streamable HTTP: listed in full, got with arguments, and none from a server
// without the `prompts` capability.
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { configSourceFactory } from "./config-source";
import { serveMcpOverHttp, type HttpMcpServer } from "./fixtures/serve-mcp-over-http";
import type { Source } from "./source";

let served: HttpMcpServer | null = null;
let source: Source | null = null;
afterEach(async () => {
  await source?.close();
  source = null;
  await served?.close();
  served = null;
});

async function openOn(factory: () => McpServer): Promise<Source> {
  served = await serveMcpOverHttp(factory);
  source = await configSourceFactory(
    { kind: "remote", name: "library", url: served.url, headers: {}, allowHttp: false },
    { startupTimeout: 10, timeout: 10 },
  ).open();
  return source;
}

describe("prompts of a connection source", () => {
  it("lists the prompts and gets one with its arguments", async () => {
    const opened = await openOn(() => {
      const mcp = new McpServer({ name: "library", version: "1.0.0" });
      mcp.registerPrompt(
        "greet",
        { description: "Greets someone.", argsSchema: z.object({ name: z.string() }) },
        ({ name }) => ({
          messages: [
            { role: "user" as const, content: { type: "text" as const, text: `Hi ${name}` } },
          ],
        }),
      );
      return mcp;
    });
    const { prompts } = await opened.listPrompts();
    expect(prompts).toMatchObject([
      {
        name: "greet",
        description: "Greets someone.",
        arguments: [{ name: "name", required: true }],
      },
    ]);
    const result = await opened.getPrompt("greet", { name: "Ada" });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Hi Ada" } }]);
  });

  it("lists none from a server without prompts, and refuses to get one", async () => {
    const opened = await openOn(() => {
      const mcp = new McpServer({ name: "library", version: "1.0.0" });
      mcp.registerTool("noop", { description: "Does nothing." }, () => ({ content: [] }));
      return mcp;
    });
    expect(await opened.listPrompts()).toEqual({ prompts: [] });
    await expect(opened.getPrompt("greet", {})).rejects.toMatchObject({
      code: "unavailable",
      message: "library offers no prompts; choose another one.",
    });
  });
});
