import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { McpServerConfig } from "@mcp-chat-host/connection";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configSourceFactory } from "./config-source";
import type { Source } from "./source";
import { isVisibleTo, toolResourceUri } from "./tool-metadata";
import { readViewResource } from "./view-resource";

/** The stdio entry point of an example app server, from its package's `bin`. */
function exampleServerBin(packageName: string): string {
  const require = createRequire(import.meta.url);
  // The package exports only its main module, so find its package.json from there.
  let directory = dirname(require.resolve(packageName));
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
        name?: string;
        bin?: Record<string, string>;
      };
      if (manifest.name === packageName) {
        const [bin] = Object.values(manifest.bin ?? {});
        if (bin === undefined) throw new Error(`${packageName} has no bin`);
        return join(directory, bin);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    directory = dirname(directory);
  }
  throw new Error(`package.json of ${packageName} not found`);
}

const entry: McpServerConfig = {
  kind: "stdio",
  name: "basic",
  command: process.execPath,
  args: [exampleServerBin("@modelcontextprotocol/server-basic-react"), "--stdio"],
  env: {},
};

describe("a connection source on server-basic-react over stdio", () => {
  let source: Source;

  beforeAll(async () => {
    source = await configSourceFactory(entry, { startupTimeout: 20, timeout: 20 }).open();
  });
  afterAll(async () => {
    await source?.close();
  });

  it("is keyed by the configuration entry's name", () => {
    expect(source.key).toBe("basic");
    expect(source.kind).toBe("connection");
  });

  it("lists get-time with a view, visible to the model and the app, and caches the list", async () => {
    const tools = await source.tools();
    const getTime = tools.find((tool) => tool.name === "get-time");
    expect(getTime).toBeDefined();
    expect(toolResourceUri(getTime!)).toBe("ui://get-time/mcp-app.html");
    expect(isVisibleTo(getTime!, "model")).toBe(true);
    expect(isVisibleTo(getTime!, "app")).toBe(true);
    expect(source.cachedTools()?.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
  });

  it("loads the view resource as an MCP App page", async () => {
    const view = await readViewResource(source, "ui://get-time/mcp-app.html");
    expect(view.mimeType).toBe("text/html;profile=mcp-app");
    expect(view.html.length).toBeGreaterThan(10_000);
    expect(view.html.toLowerCase()).toContain("<html");
  });

  it("calls get-time", async () => {
    const result = await source.callTool("get-time", {});
    expect(result.isError).not.toBe(true);
    const [block] = result.content;
    expect(block?.type).toBe("text");
    expect(Number.isNaN(Date.parse(block?.type === "text" ? block.text : ""))).toBe(false);
  });

  it("answers a read of an unknown resource with a protocol error and stays open", async () => {
    await expect(source.readResource("ui://get-time/missing.html")).rejects.toMatchObject({
      code: "protocol",
    });
    expect(source.closed).toBe(false);
  });

  it("closes the session and its server", async () => {
    const other = await configSourceFactory(entry, { startupTimeout: 20 }).open();
    let closes = 0;
    other.onClose(() => (closes += 1));
    await other.close();
    expect(other.closed).toBe(true);
    expect(closes).toBe(1);
    await expect(other.tools()).rejects.toMatchObject({ code: "closed" });
  });
});
