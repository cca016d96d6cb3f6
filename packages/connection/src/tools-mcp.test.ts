import { afterAll, describe, expect, it } from "vitest";
import {
  brokenEntry,
  everythingEntry,
  processGone,
  tinyEntry,
} from "../test/fixtures/configs/shared-servers";
import { McpConfigError } from "./config/config-error";
import { parseMcpConfig } from "./config/parse-config";
import { McpDesynchronizedError } from "./connection-errors";
import { McpSharedConnectionError } from "./shared-connection-error";
import type { SharedToolHandle } from "./shared-connection-types";
import { SharedConnections } from "./shared-connections";
import { toolsMcp } from "./tools-mcp";

const config = parseMcpConfig(
  {
    mcpServers: {
      everything: everythingEntry(),
      tiny: tinyEntry(["tiny-a", "tiny-b"]),
      bare: tinyEntry([]),
      lossy: tinyEntry(["lossy-tool"], "wrong-id"),
      broken: brokenEntry(),
    },
  },
  { source: "test-config" },
);

const registries: SharedConnections[] = [];
function connections(): SharedConnections {
  const registry = new SharedConnections({ startupTimeout: 20, timeout: 20 });
  registries.push(registry);
  return registry;
}

afterAll(async () => {
  await Promise.all(registries.map((registry) => registry.shutdown()));
});

function tool(tools: readonly SharedToolHandle[], name: string): SharedToolHandle {
  const found = tools.find((handle) => handle.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

function text(result: { content?: unknown }): string | undefined {
  const [first] = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return first?.text;
}

describe("SharedConnections with server-everything over stdio", () => {
  it("loads every tool with its annotations and source, and calls run concurrently", async () => {
    const registry = connections();
    const { servers, tools } = await registry.load(config, ["everything"]);
    expect(servers).toEqual(["everything"]);
    expect(tools.map((handle) => handle.name)).toEqual(
      expect.arrayContaining(["echo", "get-sum", "gzip-file-as-resource"]),
    );
    const echo = tool(tools, "echo");
    expect(echo.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tool(tools, "gzip-file-as-resource").annotations?.openWorldHint).toBe(true);
    const status = registry.status("everything");
    expect(echo.source).toEqual({
      type: "mcp",
      server: "everything",
      tool: "echo",
      operation: "tools/call",
      connectionId: status?.connectionId,
    });
    expect(status?.connectionId).toMatch(/^mcp_[0-9a-f]{32}$/);
    expect(status?.tools).toEqual(tools.map((handle) => handle.name));

    // A shared connection serves several conversations: two calls at once both succeed.
    const [first, second] = await Promise.all([
      echo.call({ message: "one" }),
      echo.call({ message: "two", unused: undefined }),
    ]);
    expect(text(first)).toBe("Echo: one");
    expect(text(second)).toBe("Echo: two");
  });

  it("replaces a reloaded server: old handles fail as stale, the old process is gone", async () => {
    const registry = connections();
    const before = await registry.load(config, ["everything"]);
    const oldEcho = tool(before.tools, "echo");
    const oldProcess = registry.status("everything")?.processId;
    expect(oldProcess).toBeTypeOf("number");

    const after = await registry.load(config, ["everything"]);
    const newEcho = tool(after.tools, "echo");
    expect(oldEcho.isCurrent()).toBe(false);
    expect(newEcho.isCurrent()).toBe(true);
    const error = await oldEcho.call({ message: "late" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpSharedConnectionError);
    expect((error as McpSharedConnectionError).code).toBe("stale");
    expect((error as Error).message).toBe(
      'MCP server "everything" was reconnected; load its tools again.',
    );
    expect(await processGone(oldProcess as number)).toBe(true);
    expect(registry.status("everything")?.processId).not.toBe(oldProcess);
    expect(text(await newEcho.call({ message: "fresh" }))).toBe("Echo: fresh");
  });

  it("fails closed after close(server), naming the reason", async () => {
    const registry = connections();
    const { tools } = await registry.load(config, ["everything"]);
    const processId = registry.status("everything")?.processId as number;
    await registry.close("everything");
    expect(registry.servers()).toEqual([]);
    expect(await processGone(processId)).toBe(true);
    const error = await tool(tools, "echo")
      .call({ message: "x" })
      .catch((caught: unknown) => caught);
    expect((error as McpSharedConnectionError).code).toBe("closed");
    expect((error as Error).message).toBe(
      'The shared connection to MCP server "everything" is closed (closed); load its tools again.',
    );
  });
});

describe("SharedConnections faults", () => {
  it("stops a server's shared connection on its first lost reply", async () => {
    const registry = connections();
    const { tools } = await registry.load(config, ["lossy"]);
    const lossy = tool(tools, "lossy-tool");
    const processId = registry.status("lossy")?.processId as number;
    const error = await lossy.call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpDesynchronizedError);
    expect((error as McpDesynchronizedError).code).toBe("desynchronized");
    expect(registry.status("lossy")).toMatchObject({ state: "closed", reason: "desynchronized" });
    expect(await processGone(processId)).toBe(true);
    const next = await lossy.call().catch((caught: unknown) => caught);
    expect((next as McpSharedConnectionError).code).toBe("closed");
    expect((next as Error).message).toContain("(desynchronized); load its tools again.");
  });

  it("starts only the selected servers, and refuses unknown names before starting any", async () => {
    const registry = connections();
    // `broken` never starts; selecting around it must not touch it.
    const { servers } = await registry.load(config, ["tiny"]);
    expect(servers).toEqual(["tiny"]);
    const error = await registry.load(config, ["tiny", "Tiny"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as Error).message).toContain(
      "`servers` must name configured MCP servers exactly.",
    );
    // The refused load closed nothing: tiny is still the same, open connection.
    expect(registry.status("tiny")).toMatchObject({ state: "idle", reason: null });
  });

  it("closes what it started when one server of a load fails, and throws", async () => {
    const registry = connections();
    const error = await registry
      .load(config, ["tiny", "broken"])
      .catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("startup_failed");
    expect((error as Error).message).toContain('MCP server "broken"');
    expect(registry.servers()).toEqual([]);
  });

  it("refuses loads after shutdown", async () => {
    const registry = connections();
    await registry.load(config, ["tiny"]);
    await registry.shutdown();
    expect(registry.servers()).toEqual([]);
    const error = await registry.load(config, ["tiny"]).catch((caught: unknown) => caught);
    expect((error as McpSharedConnectionError).code).toBe("unavailable");
  });
});

describe("toolsMcp", () => {
  it("returns the tools of the named servers", async () => {
    const warnings: string[] = [];
    const tools = await toolsMcp(config, ["tiny"], {
      connections: connections(),
      warn: (message) => warnings.push(message),
    });
    expect(tools.map((handle) => handle.name)).toEqual(["tiny-a", "tiny-b"]);
    expect(text(await tool(tools, "tiny-b").call())).toBe("called tiny-b");
    expect(warnings).toEqual([]);
  });

  it.each([
    ["an unknown server", config, ["nope"], "`servers` must name configured MCP servers exactly."],
    ["a server that does not start", config, ["broken"], 'MCP server "broken"'],
    ["a missing file", "/nonexistent/mcp-config.json", undefined, "does not exist"],
  ])("warns and returns [] for %s", async (_label, input, servers, detail) => {
    const warnings: string[] = [];
    const tools = await toolsMcp(input, servers, {
      connections: connections(),
      warn: (message) => warnings.push(message),
    });
    expect(tools).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Failed to fetch MCP tools: /);
    expect(warnings[0]).toContain(detail);
  });

  it("warns when the servers offer no tools", async () => {
    const warnings: string[] = [];
    const tools = await toolsMcp(config, ["bare"], {
      connections: connections(),
      warn: (message) => warnings.push(message),
    });
    expect(tools).toEqual([]);
    expect(warnings).toEqual(['The MCP servers "bare" offer no tools.']);
  });
});
