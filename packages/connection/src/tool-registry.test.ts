import { afterAll, describe, expect, it } from "vitest";
import { brokenEntry, everythingEntry, tinyEntry } from "../test/fixtures/configs/shared-servers";
import { configOf, newRecordFile, scriptedEntry } from "../test/fixtures/fixture-helpers";
import { parseMcpConfig } from "./config/parse-config";
import { McpTimeoutError } from "./connection-errors";
import { McpConnection } from "./mcp-connection";
import { ToolRegistrationError, ToolRegistry, type RegisteredTool } from "./tool-registry";
import { SharedConnections } from "./shared-connections";

const config = parseMcpConfig(
  {
    mcpServers: {
      alpha: everythingEntry(),
      tiny: tinyEntry(["tiny-a"]),
      bare: tinyEntry([]),
      broken: brokenEntry(),
    },
  },
  { source: "/etc/mcp/config.json" },
);

const registries: SharedConnections[] = [];

/** A registry on its own shared connections, with a clock that counts seconds and a warning log. */
function setup() {
  const connections = new SharedConnections({ startupTimeout: 20, timeout: 20 });
  registries.push(connections);
  const warnings: string[] = [];
  let tick = 0;
  const registry = new ToolRegistry({
    connections,
    warn: (message) => warnings.push(message),
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
  return { connections, registry, warnings };
}

afterAll(async () => {
  await Promise.all(registries.map((connections) => connections.shutdown()));
});

const local = (name: string): RegisteredTool => ({ name, source: { type: "local" } });

describe("ToolRegistry.register", () => {
  it("refuses a name already registered, with the hint, and changes nothing", () => {
    const { registry } = setup();
    registry.register([local("notes"), local("search")]);
    let error: unknown;
    try {
      registry.register([local("other"), local("notes")]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolRegistrationError);
    expect((error as ToolRegistrationError).code).toBe("tool_registration");
    expect((error as Error).message).toBe(
      'Tool "notes" is already registered. Use `replace: true` to replace an existing tool.',
    );
    expect((error as ToolRegistrationError).hint).toBe(
      "Use `replace: true` to replace an existing tool.",
    );
    expect(registry.names()).toEqual(["notes", "search"]);
  });

  it("replaces in place with replace: true, but never accepts a name twice in one batch", () => {
    const { registry } = setup();
    const first = local("notes");
    const second = local("notes");
    registry.register([first, local("search")]);
    registry.register([second], { replace: true });
    expect(registry.get("notes")).toBe(second);
    expect(registry.names()).toEqual(["notes", "search"]);
    expect(() => registry.register([local("x"), local("x")], { replace: true })).toThrow(
      'Tool "x" appears more than once',
    );
    expect(registry.names()).toEqual(["notes", "search"]);
  });
});

describe("ToolRegistry.loadMcp", () => {
  it("applies replace semantics and keeps a status row per attempt", async () => {
    const { registry, warnings } = setup();
    registry.register([
      local("get-sum"),
      { name: "retired", source: { type: "mcp", server: "alpha" } },
      local("notes"),
    ]);

    const tiny = await registry.loadMcp({ config, servers: ["tiny"] });
    expect(tiny.map((handle) => handle.name)).toEqual(["tiny-a"]);

    // replace: false clashes with the local get-sum: nothing of alpha is registered.
    const clash = await registry
      .loadMcp({ config, servers: ["alpha"] })
      .catch((caught: unknown) => caught);
    expect(clash).toBeInstanceOf(ToolRegistrationError);
    expect((clash as Error).message).toBe(
      'Failed to register MCP tools: Tool "get-sum" is already registered. Use `replace: true` to replace an existing tool.',
    );
    expect(registry.names()).toEqual(["get-sum", "retired", "notes", "tiny-a"]);

    // replace: true drops every alpha tool (even one alpha no longer offers), replaces the
    // same-named local tool, and leaves other servers' and local tools alone.
    const alpha = await registry.loadMcp({ config, servers: ["alpha"], replace: true });
    const alphaNames = alpha.map((handle) => handle.name);
    expect(registry.get("retired")).toBeUndefined();
    expect(registry.get("get-sum")).toBe(alpha.find((handle) => handle.name === "get-sum"));
    expect(registry.get("notes")?.source).toEqual({ type: "local" });
    expect(registry.get("tiny-a")).toBe(tiny[0]);
    expect(registry.mcpTools().sort()).toEqual([...alphaNames, "tiny-a"].sort());

    // Reloading tiny without replace clashes with its own old handle; on the way out the stale
    // handle is dropped anyway, because its connection was replaced.
    const reload = await registry
      .loadMcp({ config, servers: ["tiny"] })
      .catch((caught: unknown) => caught);
    expect((reload as Error).message).toContain('Tool "tiny-a" is already registered.');
    expect(registry.get("tiny-a")).toBeUndefined();
    expect(warnings).toEqual([]);

    const rows = registry.mcpStatus();
    expect(rows.map((row) => row.status)).toEqual(["connected", "failed", "connected", "failed"]);
    expect(rows[0]).toEqual({
      status: "connected",
      config: "/etc/mcp/config.json",
      servers: ["tiny"],
      tools: ["tiny-a"],
      loadedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0)),
      error: null,
    });
    expect(rows[1]).toMatchObject({ servers: ["alpha"], tools: [] });
    expect(rows[1]?.error).toContain('Tool "get-sum" is already registered.');
    expect(rows[2]).toMatchObject({ status: "connected", tools: alphaNames, error: null });
    expect(rows[3]?.loadedAt).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 0, 3)));
  });

  it("drops tools of a replaced connection even when they are not reloaded into it", async () => {
    const { registry, connections } = setup();
    await registry.loadMcp({ config, servers: ["tiny"] });
    // Another registry (another conversation) reloads the shared tiny connection.
    const other = new ToolRegistry({ connections, warn: () => {} });
    await other.loadMcp({ config, servers: ["tiny"] });
    expect(registry.get("tiny-a")?.isCurrent?.()).toBe(false);
    expect(registry.discardStale()).toEqual(["tiny-a"]);
    expect(other.get("tiny-a")?.isCurrent?.()).toBe(true);
  });

  it("warns and records failed when loading fails, returning []", async () => {
    const { registry, warnings } = setup();
    registry.register([local("notes")]);
    expect(await registry.loadMcp({ config, servers: ["broken"] })).toEqual([]);
    expect(await registry.loadMcp({ config: "/nonexistent/config.json" })).toEqual([]);
    expect(warnings).toHaveLength(2);
    expect(warnings.every((warning) => warning.startsWith("Failed to fetch MCP tools: "))).toBe(
      true,
    );
    const rows = registry.mcpStatus();
    expect(rows.map((row) => [row.status, row.config])).toEqual([
      ["failed", "/etc/mcp/config.json"],
      ["failed", "/nonexistent/config.json"],
    ]);
    expect(rows[0]?.error).toContain('MCP server "broken"');
    expect(rows[1]?.error).toContain("does not exist");
    expect(registry.names()).toEqual(["notes"]);
  });

  it("records empty when the servers offer no tools, and unavailable after shutdown", async () => {
    const { registry, connections, warnings } = setup();
    expect(await registry.loadMcp({ config, servers: ["bare"] })).toEqual([]);
    await connections.shutdown();
    expect(await registry.loadMcp({ config, servers: ["tiny"] })).toEqual([]);
    expect(registry.mcpStatus().map((row) => row.status)).toEqual(["empty", "unavailable"]);
    expect(warnings).toEqual([
      'The MCP servers "bare" offer no tools.',
      "Failed to fetch MCP tools: the shared MCP connections have been shut down.",
    ]);
  });

  it("records a null config when it has no path, and refuses a non-boolean replace", async () => {
    const { registry } = setup();
    expect(registry.mcpStatus()).toEqual([]);
    await expect(
      registry.loadMcp({ config, replace: "yes" as unknown as boolean }),
    ).rejects.toThrow("`replace` must be true or false.");
    expect(registry.mcpStatus()).toEqual([]);
    const inline = await registry.loadMcp({
      config: { mcpServers: { tiny: tinyEntry(["inline-tool"]) } },
    });
    expect(inline.map((handle) => handle.name)).toEqual(["inline-tool"]);
    expect(registry.mcpStatus()[0]).toMatchObject({ config: null, servers: [] });
  });
});

describe("ToolRegistry with McpConnection handles", () => {
  const owner = { id: "agent-1" };

  it.each([
    ["cancelled", (connection: McpConnection) => connection.cancel()],
    ["closed", (connection: McpConnection) => connection.close()],
    [
      "timed out",
      async (connection: McpConnection) => {
        const call = connection.callTool("hang", {}, { owner });
        await expect(call).rejects.toBeInstanceOf(McpTimeoutError);
      },
    ],
  ])("drops a connection's tools as stale once it is %s", async (_how, end) => {
    const connection = await McpConnection.open({
      config: configOf(scriptedEntry("scripted", newRecordFile())),
      server: "scripted",
      owner,
      tools: ["echo", "hang"],
      timeout: 0.5,
      startupTimeout: 20,
    });
    try {
      const { registry } = setup();
      registry.register([local("notes"), ...connection.tools()]);
      expect(registry.discardStale()).toEqual([]);
      await end(connection);
      expect(registry.discardStale()).toEqual(["echo", "hang"]);
      expect(registry.names()).toEqual(["notes"]);
    } finally {
      await connection.cancel();
    }
  });
});
