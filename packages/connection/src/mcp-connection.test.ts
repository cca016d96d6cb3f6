// McpConnection's contract, its constructor's checks and its methods (docs/seed-coverage.md lists
// each rule with its test), against the real server-everything over stdio (behind a proxy that
// records what reaches it) and against the scripted fixture server for the failure paths.
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpConfigError } from "./config/config-error";
import {
  McpBusyError,
  McpClosedError,
  McpDesynchronizedError,
  McpOwnerMismatchError,
  McpPermissionDeniedError,
  McpServerExitedError,
  McpStartupError,
  McpTimeoutError,
  McpValidationError,
} from "./connection-errors";
import { getPromptDescription, readResourceDescription } from "./mcp-capability-tools";
import { McpConnection } from "./mcp-connection";
import type { McpConnectionOptions } from "./mcp-connection-types";
import {
  configOf,
  countedEverythingEntry,
  isGone,
  newRecordFile,
  readRecord,
  recordedMethods,
  recordedPids,
  scriptedEntry,
  stillRunning,
  waitUntil,
  waitUntilGone,
} from "../test/fixtures/fixture-helpers";

const owner = { id: "agent-1", session: "session-1" };
const architecture = "demo://resource/static/document/architecture.md";
const connections: McpConnection[] = [];

async function open(options: McpConnectionOptions): Promise<McpConnection> {
  const connection = new McpConnection(options);
  connections.push(connection);
  await connection.ready;
  return connection;
}

async function openEverything(
  allow: Pick<McpConnectionOptions, "tools" | "resources" | "prompts"> = {},
): Promise<{ connection: McpConnection; record: string }> {
  const record = newRecordFile();
  const connection = await open({
    config: configOf(countedEverythingEntry("everything", record)),
    server: "everything",
    owner,
    timeout: 20,
    startupTimeout: 20,
    ...allow,
  });
  return { connection, record };
}

async function openScripted(
  flags: readonly string[] = [],
  options: Partial<McpConnectionOptions> = {},
): Promise<{ connection: McpConnection; record: string }> {
  const record = newRecordFile();
  const connection = await open({
    config: configOf(scriptedEntry("scripted", record, flags)),
    server: "scripted",
    owner,
    tools: ["echo", "slow", "wrong-id", "exit", "hang"],
    resources: ["fixture://allowed"],
    prompts: ["greet"],
    timeout: 5,
    startupTimeout: 10,
    ...options,
  });
  return { connection, record };
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as Array<{ text?: string }>;
  return first?.text ?? "";
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.cancel()));
});

describe("McpConnection with server-everything", () => {
  it("discovers one page of each catalogue with provenance, passing the cursor through", async () => {
    const { connection, record } = await openEverything({ tools: ["echo"] });
    const tools = await connection.discover("tools");
    expect(tools.source).toEqual({
      type: "mcp",
      server: "everything",
      connectionId: connection.connectionId,
      operation: "tools/list",
    });
    expect((tools.result as { tools: unknown[] }).tools.length).toBeGreaterThanOrEqual(13);
    const resources = await connection.discover("resources");
    expect(resources.source.operation).toBe("resources/list");
    expect(JSON.stringify(resources.result)).toContain(architecture);
    const templates = await connection.discover("resource_templates", null);
    expect(templates.source.operation).toBe("resources/templates/list");
    expect(JSON.stringify(templates.result)).toContain("demo://resource/dynamic/text/{resourceId}");
    const prompts = await connection.discover("prompts", "");
    expect(prompts.source.operation).toBe("prompts/list");
    expect(JSON.stringify(prompts.result)).toContain("simple-prompt");
    const lists = readRecord(record).filter((event) => event.method?.endsWith("/list"));
    // One request per page; only the explicit (empty) cursor is sent.
    expect(lists.map((event) => [event.method, event.params?.["cursor"]])).toEqual([
      ["tools/list", undefined],
      ["tools/list", undefined],
      ["resources/list", undefined],
      ["resources/templates/list", undefined],
      ["prompts/list", ""],
    ]);
    // Discovery never authorizes what it lists.
    await expect(connection.readResource(architecture)).rejects.toBeInstanceOf(
      McpPermissionDeniedError,
    );
    expect(connection.status().allowed).toEqual({ tools: ["echo"], resources: [], prompts: [] });
  });

  it("refuses items outside the allowlists before anything is sent", async () => {
    const { connection, record } = await openEverything({
      tools: ["echo"],
      resources: [architecture],
      prompts: ["simple-prompt"],
    });
    const refusals = [
      connection.readResource("demo://resource/static/document/features.md"),
      connection.getPrompt("args-prompt", { city: "Paris" }),
      connection.callTool("get-env", {}, { owner }),
    ];
    await expect(refusals[0]).rejects.toThrow(
      "The MCP resources item is not in the connection's host allowlist.",
    );
    await expect(refusals[1]).rejects.toThrow(
      "The MCP prompts item is not in the connection's host allowlist.",
    );
    await expect(refusals[2]).rejects.toMatchObject({ code: "permission_denied", kind: "tools" });
    // A request that is sent, after the refusals: the record is complete up to it.
    await connection.discover("prompts");
    expect(recordedMethods(record)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "prompts/list",
    ]);
  });

  it("reads an allowed resource, gets an allowed prompt and calls an allowed tool", async () => {
    const { connection, record } = await openEverything({
      tools: ["echo"],
      resources: [architecture],
      prompts: ["simple-prompt"],
    });
    const resource = await connection.readResource(architecture);
    expect(resource.source).toMatchObject({
      operation: "resources/read",
      connectionId: connection.connectionId,
    });
    expect(resource.result.contents[0]?.uri).toBe(architecture);
    const prompt = await connection.getPrompt("simple-prompt");
    expect(prompt.source.operation).toBe("prompts/get");
    expect(JSON.stringify(prompt.result.messages)).toContain(
      "This is a simple prompt without arguments.",
    );
    const [echo] = connection.tools();
    expect(echo?.name).toBe("echo");
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(echo?.source).toEqual({
      type: "mcp",
      server: "everything",
      tool: "echo",
      operation: "tools/call",
      connectionId: connection.connectionId,
    });
    expect(echo?.owner).toEqual(owner);
    const result = await echo?.call({ message: "hi", unused: undefined }, { owner });
    expect(text(result ?? {})).toBe("Echo: hi");
    const sent = readRecord(record).filter(
      (event) => event.method === "tools/call" || event.method === "prompts/get",
    );
    expect(sent.map((event) => event.params)).toEqual([
      { name: "simple-prompt", arguments: {} },
      { name: "echo", arguments: { message: "hi" } },
    ]);
    expect(connection.status()).toMatchObject({ state: "idle", reason: null });
  });

  it("lists tools at startup only when tools are allowed", async () => {
    const { connection, record } = await openEverything({ resources: [architecture] });
    expect(connection.tools()).toEqual([]);
    expect(connection.listTools()).toEqual([]);
    await connection.readResource(architecture);
    expect(recordedMethods(record)).toEqual([
      "initialize",
      "notifications/initialized",
      "resources/read",
    ]);
  });

  it("fails startup when an allowed tool is missing, and leaves nothing running", async () => {
    const record = newRecordFile();
    const connection = new McpConnection({
      config: configOf(countedEverythingEntry("everything", record)),
      server: "everything",
      owner,
      tools: ["echo", "no-such-tool"],
      startupTimeout: 20,
    });
    connections.push(connection);
    await expect(connection.ready).rejects.toThrow(
      "The MCP server did not supply every allowed tool.",
    );
    await expect(connection.ready).rejects.toBeInstanceOf(McpStartupError);
    expect(connection.status()).toMatchObject({ state: "closed", reason: "startup_failed" });
    await waitUntilGone(recordedPids(record));
    await expect(connection.discover("tools")).rejects.toThrow(
      "The MCP connection is closed (startup_failed): The MCP server did not supply every allowed tool.",
    );
  });

  it("gives the startup failure's reason to the next caller when nobody awaited ready", async () => {
    const record = newRecordFile();
    const connection = new McpConnection({
      config: configOf(scriptedEntry("scripted", record)),
      server: "scripted",
      owner,
      tools: ["echo", "no-such-tool"],
      startupTimeout: 20,
    });
    connections.push(connection);
    const call = connection.callTool("echo", {}, { owner });
    await expect(call).rejects.toBeInstanceOf(McpClosedError);
    await expect(call).rejects.toThrow(
      "The MCP connection is closed (startup_failed): The MCP server did not supply every allowed tool.",
    );
    await expect(call).rejects.toMatchObject({ reason: "startup_failed" });
    expect(() => connection.tools()).toThrow(
      "The MCP connection is closed (startup_failed): The MCP server did not supply every allowed tool.",
    );
    const misnamed = new McpConnection({
      config: configOf(scriptedEntry("scripted", record)),
      server: "Scripted",
      owner,
    });
    await expect(misnamed.discover("tools")).rejects.toThrow(
      "The MCP connection is closed (startup_failed): Select one exact, uniquely named MCP server configuration.",
    );
  });
});

describe("validation before anything starts", () => {
  function options(overrides: Partial<McpConnectionOptions>, record: string): McpConnectionOptions {
    return {
      config: configOf(scriptedEntry("scripted", record)),
      server: "scripted",
      owner,
      ...overrides,
    } as McpConnectionOptions;
  }

  it.each([
    ["tools", ["echo", "echo"]],
    ["tools", [""]],
    ["resources", "fixture://allowed"],
    ["prompts", [7]],
  ])("refuses a bad %s allowlist", (name, value) => {
    const record = newRecordFile();
    expect(() => new McpConnection(options({ [name]: value }, record))).toThrow(
      new McpValidationError(`\`${name}\` must contain unique, non-empty strings.`),
    );
    expect(existsSync(record)).toBe(false);
  });

  it.each([0, -1, Number.POSITIVE_INFINITY, Number.NaN, "5"])("refuses the timeout %s", (value) => {
    const record = newRecordFile();
    expect(() => new McpConnection(options({ timeout: value as number }, record))).toThrow(
      "`timeout` must be positive and finite.",
    );
    expect(() => new McpConnection(options({ startupTimeout: value as number }, record))).toThrow(
      "`startupTimeout` must be positive and finite.",
    );
    expect(existsSync(record)).toBe(false);
  });

  it.each([undefined, "agent-1", {}, { id: "" }, { id: "a", run: 3 }])(
    "refuses the owner %j",
    (value) => {
      const record = newRecordFile();
      expect(() => new McpConnection(options({ owner: value as never }, record))).toThrow(
        "`owner` must be an owner record with an id.",
      );
      expect(existsSync(record)).toBe(false);
    },
  );

  it("refuses a server that is not configured exactly, starting nothing", async () => {
    const record = newRecordFile();
    const connection = new McpConnection(options({ server: "Scripted" }, record));
    await expect(connection.ready).rejects.toBeInstanceOf(McpConfigError);
    await expect(connection.ready).rejects.toThrow(
      "Select one exact, uniquely named MCP server configuration.",
    );
    expect(connection.status()).toMatchObject({ state: "closed", reason: "startup_failed" });
    expect(existsSync(record)).toBe(false);
    expect(() => new McpConnection(options({ server: "" }, record))).toThrow(McpValidationError);
  });

  it("reads the configuration from a file path", async () => {
    const record = newRecordFile();
    const file = join(dirname(record), "config.json");
    const entry = scriptedEntry("from-file", record);
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { "from-file": { command: entry.command, args: entry.args } } }),
    );
    const connection = await open({ config: file, server: "from-file", owner, tools: ["echo"] });
    expect(connection.status()).toMatchObject({ server: "from-file", state: "idle" });
    expect(connection.connectionId).toMatch(/^mcp_[0-9a-f]{32}$/);
  });

  it("checks discovery and prompt arguments", async () => {
    const { connection, record } = await openScripted();
    await expect(connection.discover("everything" as never)).rejects.toThrow(
      "`kind` must be one of tools, resources, resource_templates, prompts.",
    );
    await expect(connection.discover("tools", 5 as never)).rejects.toThrow(
      "`cursor` must be a string or null.",
    );
    await expect(connection.getPrompt("greet", { name: 5 } as never)).rejects.toThrow(
      "Prompt arguments must be named, non-missing strings.",
    );
    const prompt = await connection.getPrompt("greet", { name: "Ada" });
    expect(JSON.stringify(prompt.result)).toContain("Hello Ada");
    expect(
      recordedMethods(record).filter(
        (method) => method === "prompts/get" || method.endsWith("/list"),
      ),
    ).toEqual(["tools/list", "prompts/get"]);
  });

  it("rejects tool annotations with an empty title at startup", async () => {
    const record = newRecordFile();
    const connection = new McpConnection(options({ tools: ["echo"] }, record));
    connections.push(connection);
    await connection.ready;
    const bad = new McpConnection({
      ...options({ tools: ["echo"] }, record),
      config: configOf(scriptedEntry("scripted", record, ["--bad-annotations"])),
    });
    connections.push(bad);
    await expect(bad.ready).rejects.toThrow(
      'The MCP server supplied invalid annotations for tool "untitled"',
    );
    expect(bad.status().reason).toBe("startup_failed");
  });
});

describe("misbehaving servers", () => {
  async function expectClosedAfterwards(connection: McpConnection, reason: string): Promise<void> {
    await expect(connection.callTool("echo", {}, { owner })).rejects.toThrow(
      new McpClosedError(reason as never).message,
    );
    await expect(connection.tools()[0]?.call({}, { owner })).rejects.toBeInstanceOf(McpClosedError);
  }

  it("closes with reason timeout when a reply is late; the late reply never answers a later call", async () => {
    const { connection, record } = await openScripted([], { timeout: 1 });
    const late = connection.callTool("slow", { delayMs: 3000 }, { owner });
    expect(connection.status().state).toBe("busy");
    await expect(late).rejects.toBeInstanceOf(McpTimeoutError);
    await expect(late).rejects.toThrow("MCP connection ended: timeout");
    expect(connection.status()).toMatchObject({ state: "closed", reason: "timeout" });
    await waitUntilGone(recordedPids(record));
    await expectClosedAfterwards(connection, "timeout");
  });

  it("closes with reason desynchronized when a reply has the wrong id", async () => {
    const { connection, record } = await openScripted(["--grandchild"]);
    const call = connection.callTool("wrong-id", {}, { owner });
    await expect(call).rejects.toBeInstanceOf(McpDesynchronizedError);
    await expect(call).rejects.toThrow(
      'MCP server "scripted" lost request/response synchronization. The connection was closed; its server session state is lost. Create a new connection to continue.',
    );
    expect(connection.status()).toMatchObject({ state: "closed", reason: "desynchronized" });
    await waitUntilGone(recordedPids(record));
    await expectClosedAfterwards(connection, "desynchronized");
  });

  it.each([
    ["null", "null-id"],
    ["no", "no-id"],
  ])("closes as desynchronized at once when a reply has %s id", async (_label, tool) => {
    // The deadline is far past the test's own: the call must not wait for it.
    const { connection, record } = await openScripted([], { tools: [tool], timeout: 600 });
    const call = connection.callTool(tool, {}, { owner });
    await expect(call).rejects.toBeInstanceOf(McpDesynchronizedError);
    await expect(call).rejects.toThrow(
      'MCP server "scripted" lost request/response synchronization.',
    );
    expect(connection.status()).toMatchObject({ state: "closed", reason: "desynchronized" });
    await waitUntilGone(recordedPids(record));
    await expect(connection.tools()[0]?.call({}, { owner })).rejects.toThrow(
      "The MCP connection is closed (desynchronized); create a new connection.",
    );
  });

  it("reports a server that exits mid-call as server_exited", async () => {
    const { connection, record } = await openScripted(["--grandchild"]);
    const call = connection.callTool("exit", {}, { owner });
    await expect(call).rejects.toBeInstanceOf(McpServerExitedError);
    await expect(call).rejects.toThrow("session state is lost");
    expect(connection.status()).toMatchObject({ state: "closed", reason: "server_exited" });
    await waitUntilGone(recordedPids(record));
    await expectClosedAfterwards(connection, "server_exited");
  });

  it("reports a server that died while idle as server_exited in status()", async () => {
    const { connection, record } = await openScripted();
    const [serverPid] = readRecord(record)
      .filter((event) => event.event === "start")
      .map((event) => event.pid);
    process.kill(serverPid as number, "SIGKILL");
    await waitUntil(() => isGone(serverPid as number), "the server to die");
    await waitUntil(() => connection.status().state === "closed", "the connection to notice");
    expect(connection.status().reason).toBe("server_exited");
  });

  it("fails startup with reason startup_failed when the server never initializes", async () => {
    const record = newRecordFile();
    const connection = new McpConnection({
      config: configOf(scriptedEntry("silent", record, ["--never-initialize", "--grandchild"])),
      server: "silent",
      owner,
      tools: ["echo"],
      startupTimeout: 1.5,
    });
    connections.push(connection);
    expect(connection.status().state).toBe("starting");
    await expect(connection.ready).rejects.toThrow(
      'MCP server "silent" did not initialize in time',
    );
    expect(connection.status()).toMatchObject({ state: "closed", reason: "startup_failed" });
    await waitUntilGone(recordedPids(record));
    expect(() => connection.tools()).toThrow("(startup_failed)");
  });

  it("cancel() kills the whole process tree, rejects the pending call, and is idempotent", async () => {
    const { connection, record } = await openScripted(["--grandchild"]);
    const pids = recordedPids(record);
    expect(pids).toHaveLength(2);
    const pending = connection.callTool("hang", {}, { owner });
    await waitUntil(
      () => recordedMethods(record).includes("tools/call"),
      "the call to reach the server",
    );
    // Handled before the wait: cancel() resolves only once the tree is gone.
    const rejected = expect(pending).rejects.toThrow("MCP connection ended: cancelled");
    await connection.cancel();
    await connection.cancel();
    await rejected;
    expect(connection.status()).toMatchObject({ state: "closed", reason: "cancelled" });
    await waitUntilGone(pids);
    await expectClosedAfterwards(connection, "cancelled");
  });
});

describe("one request at a time", () => {
  it("refuses a second request at once while other connections and the event loop carry on", async () => {
    const first = await openScripted();
    const second = await openScripted();
    const events: string[] = [];
    const running = first.connection
      .callTool("slow", { delayMs: 500 }, { owner })
      .then((result) => events.push(`slow:${text(result)}`));
    setTimeout(() => events.push("timer"), 0);
    const refused = first.connection.discover("tools").catch((error: unknown) => {
      events.push("busy");
      throw error;
    });
    await expect(refused).rejects.toBeInstanceOf(McpBusyError);
    await expect(refused).rejects.toThrow("The MCP connection already has an active request.");
    expect(first.connection.status().state).toBe("busy");
    const other = await second.connection.callTool("echo", { n: 1 }, { owner });
    events.push(`other:${text(other)}`);
    await running;
    // The refusal comes at once; the timer and the other connection's answer both come while the
    // slow call still runs (which of the two comes first is the event loop's business: an answer
    // under a millisecond beats a 1 ms timer).
    expect(events[0]).toBe("busy");
    expect([...events].sort()).toEqual(["busy", 'other:{"n":1}', "slow:late", "timer"]);
    expect(events.at(-1)).toBe("slow:late");
    expect(first.connection.status().state).toBe("idle");
  });
});

describe("owners and handles", () => {
  it("refuses a caller with a different owner before sending anything", async () => {
    const { connection, record } = await openScripted();
    const [echo] = connection.tools();
    await expect(
      echo?.call({}, { owner: { id: "agent-2", session: "session-1" } }),
    ).rejects.toBeInstanceOf(McpOwnerMismatchError);
    await expect(
      connection.callTool("echo", {}, { owner: { id: "agent-1", session: "other" } }),
    ).rejects.toThrow("The MCP connection belongs to a different owner; create a new connection.");
    await expect(
      connection.callTool("echo", {}, { owner: { id: "agent-1" } }),
    ).rejects.toMatchObject({
      code: "owner_mismatch",
    });
    await expect(connection.callTool("echo", {}, {} as never)).rejects.toThrow(
      "`owner` must be an owner record",
    );
    expect(recordedMethods(record)).not.toContain("tools/call");
    expect(text(await connection.callTool("echo", { a: 1 }, { owner: { ...owner } }))).toBe(
      '{"a":1}',
    );
  });

  it("gives handles the server's metadata, and fixes the allowlists", async () => {
    const { connection } = await openScripted();
    const echo = connection.tools().find((tool) => tool.name === "echo");
    expect(echo).toMatchObject({
      title: "Echo",
      description: "Echoes its arguments.",
      inputSchema: { type: "object" },
      meta: { ui: { resourceUri: "ui://fixture/echo.html" } },
    });
    expect(connection.tools().map((tool) => tool.name)).toEqual([
      "echo",
      "slow",
      "wrong-id",
      "exit",
      "hang",
    ]);
    expect(connection.listTools().map((tool) => tool.name)).toContain("fail");
    expect(Object.isFrozen(connection.allowed.tools)).toBe(true);
  });
});

describe("handles of an ended connection", () => {
  async function endByTimeout(connection: McpConnection): Promise<void> {
    await expect(connection.callTool("hang", {}, { owner })).rejects.toBeInstanceOf(
      McpTimeoutError,
    );
  }

  it.each([
    ["cancelled", (connection: McpConnection) => connection.cancel()],
    ["closed", (connection: McpConnection) => connection.close()],
    ["timeout", endByTimeout],
  ])("say they are not current once the connection is %s", async (reason, end) => {
    const { connection } = await openScripted([], { timeout: 0.5 });
    const handles = connection.tools();
    const [read] = connection.capabilityTools();
    expect(handles.map((handle) => handle.isCurrent())).toEqual([true, true, true, true, true]);
    expect(read?.isCurrent()).toBe(true);
    await end(connection);
    expect(connection.status().reason).toBe(reason);
    expect(handles.map((handle) => handle.isCurrent())).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(read?.isCurrent()).toBe(false);
  });

  it("say they are not current once the server died while idle", async () => {
    const { connection, record } = await openScripted();
    const [echo] = connection.tools();
    const [serverPid] = readRecord(record)
      .filter((event) => event.event === "start")
      .map((event) => event.pid);
    process.kill(serverPid as number, "SIGKILL");
    await waitUntil(() => isGone(serverPid as number), "the server to die");
    await waitUntil(() => echo?.isCurrent() === false, "the handle to notice");
    expect(connection.status().reason).toBe("server_exited");
  });
});

describe("the server's process tree", () => {
  it.each([
    ["close()", (connection: McpConnection) => connection.close()],
    ["cancel()", (connection: McpConnection) => connection.cancel()],
  ])("is gone when %s resolves, a grandchild that left the group included", async (_label, end) => {
    const { connection, record } = await openScripted(["--grandchild", "--setsid-grandchild"]);
    const pids = recordedPids(record);
    expect(pids).toHaveLength(3);
    await end(connection);
    expect(stillRunning(pids)).toEqual([]);
  });

  it("is gone after a timeout once close() resolves", async () => {
    const { connection, record } = await openScripted(["--setsid-grandchild"], { timeout: 0.3 });
    const pids = recordedPids(record);
    await expect(connection.callTool("hang", {}, { owner })).rejects.toBeInstanceOf(
      McpTimeoutError,
    );
    await connection.close();
    expect(stillRunning(pids)).toEqual([]);
  });
});

describe("capabilityTools", () => {
  it("builds enum-restricted read and prompt tools with open-world annotations", async () => {
    const { connection } = await openScripted();
    const [read, prompt] = connection.capabilityTools();
    expect(read).toMatchObject({
      name: "mcp_read_resource",
      description: readResourceDescription,
      inputSchema: {
        properties: { uri: { type: "string", enum: ["fixture://allowed"] } },
        required: ["uri"],
      },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      source: {
        type: "mcp",
        server: "scripted",
        operation: "resources/read",
        connectionId: connection.connectionId,
      },
    });
    expect(readResourceDescription).toBe(
      "Read one host-allowed MCP resource. Returned links are not fetched.",
    );
    expect(prompt).toMatchObject({
      name: "mcp_get_prompt",
      description: getPromptDescription,
      inputSchema: { properties: { name: { enum: ["greet"] } }, required: ["name"] },
      source: { operation: "prompts/get" },
    });
    expect(getPromptDescription).toBe(
      "Retrieve one host-allowed MCP prompt without adding it to the conversation. Prompts requiring arguments must be retrieved by the host.",
    );
    const read1 = await read?.call({ uri: "fixture://allowed" }, { owner });
    expect(JSON.stringify(read1?.result)).toContain("contents of fixture://allowed");
    await expect(read?.call({ uri: "fixture://other" }, { owner })).rejects.toBeInstanceOf(
      McpPermissionDeniedError,
    );
    await expect(
      read?.call({ uri: "fixture://allowed" }, { owner: { id: "x" } }),
    ).rejects.toBeInstanceOf(McpOwnerMismatchError);
    expect(connection.capabilityTools("first").map((tool) => tool.name)).toEqual([
      "first_read_resource",
      "first_get_prompt",
    ]);
    expect(() => connection.capabilityTools("invalid prefix")).toThrow(
      "`prefix` must contain 1 to 50 letters, digits, underscores or hyphens.",
    );
    expect(() => connection.capabilityTools("x".repeat(51))).toThrow(McpValidationError);
  });

  it("builds nothing when no resources or prompts are allowed", async () => {
    const { connection } = await openScripted([], { resources: [], prompts: [] });
    expect(connection.capabilityTools()).toEqual([]);
  });
});

describe("close()", () => {
  it("asks an idle server to shut down, returns nothing, and may be called again", async () => {
    const { connection, record } = await openScripted(["--grandchild"]);
    expect(await connection.close()).toBeUndefined();
    expect(readRecord(record).some((event) => event.event === "stdin-end")).toBe(true);
    expect(connection.status()).toMatchObject({ state: "closed", reason: "closed" });
    await waitUntilGone(recordedPids(record));
    expect(await connection.close()).toBeUndefined();
    await expect(connection.readResource("fixture://allowed")).rejects.toThrow(
      "The MCP connection is closed (closed); create a new connection.",
    );
  });

  it("rejects an active call with 'MCP connection ended: closed'", async () => {
    const { connection, record } = await openScripted();
    const pending = connection.callTool("hang", {}, { owner });
    await waitUntil(
      () => recordedMethods(record).includes("tools/call"),
      "the call to reach the server",
    );
    const rejected = expect(pending).rejects.toThrow("MCP connection ended: closed");
    await connection.close();
    await rejected;
    expect(connection.status().reason).toBe("closed");
    await waitUntilGone(recordedPids(record));
  });

  it("called while starting, ends the connection with reason closed", async () => {
    const record = newRecordFile();
    const connection = new McpConnection({
      config: configOf(scriptedEntry("silent", record, ["--never-initialize"])),
      server: "silent",
      owner,
      startupTimeout: 30,
    });
    connections.push(connection);
    await connection.close();
    await expect(connection.ready).rejects.toBeInstanceOf(McpClosedError);
    expect(connection.status()).toMatchObject({ state: "closed", reason: "closed" });
  });
});
