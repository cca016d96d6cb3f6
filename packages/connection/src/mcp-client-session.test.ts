// McpClientSession against real child processes (the scripted fixture server) and real HTTP
// servers on 127.0.0.1: concurrency, per-request cancellation, deadlines, lost replies, exits,
// startup failures, shutdown paths, process trees and the remote transports.
import { afterEach, describe, expect, it } from "vitest";
import type { McpRemoteServerConfig } from "./config/config-types";
import {
  McpClosedError,
  McpConnectionEndedError,
  McpDesynchronizedError,
  McpServerError,
  McpServerExitedError,
  McpStartupError,
  McpTimeoutError,
  type McpCloseReason,
} from "./connection-errors";
import { McpClientSession, mcpAppsExtensionId } from "./mcp-client-session";
import { liveProcessTrees, sampleProcessTrees } from "./process-tree";
import {
  newRecordFile,
  nodeEntry,
  readRecord,
  recordedMethods,
  recordedPids,
  scriptedEntry,
  stillRunning,
  waitUntil,
  waitUntilGone,
} from "../test/fixtures/fixture-helpers";
import {
  startSseOnlyFixture,
  startStreamableHttpFixture,
  type HttpFixture,
} from "../test/fixtures/http-servers";

const sessions: McpClientSession[] = [];
const fixtures: HttpFixture[] = [];

async function openScripted(
  flags: readonly string[] = [],
  options: Parameters<typeof McpClientSession.open>[1] = {},
): Promise<{ session: McpClientSession; record: string }> {
  const record = newRecordFile();
  const session = await McpClientSession.open(scriptedEntry("scripted", record, flags), {
    timeout: 5,
    startupTimeout: 10,
    ...options,
  });
  sessions.push(session);
  return { session, record };
}

function closedWith(session: McpClientSession): Promise<McpCloseReason> {
  return new Promise((resolve) => session.onClose((reason) => resolve(reason)));
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as Array<{ text?: string }>;
  return first?.text ?? "";
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.cancel()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

describe("McpClientSession over stdio", () => {
  it("declares the MCP Apps extension in initialize and keeps _meta on results", async () => {
    const { session, record } = await openScripted();
    const initialize = readRecord(record).find((event) => event.method === "initialize");
    const capabilities = initialize?.params?.["capabilities"] as {
      extensions?: Record<string, unknown>;
    };
    expect(capabilities.extensions?.[mcpAppsExtensionId]).toEqual({
      mimeTypes: ["text/html;profile=mcp-app"],
    });
    expect(session.serverInfo?.name).toBe("scripted-server");
    const page = await session.listTools();
    expect(page.tools.find((tool) => tool.name === "echo")?._meta).toEqual({
      ui: { resourceUri: "ui://fixture/echo.html" },
    });
    expect(session.state).toBe("idle");
  });

  it("passes the cursor through as given, even when empty", async () => {
    const { session, record } = await openScripted();
    await session.listTools("");
    await session.listPrompts("next");
    const pages = readRecord(record).filter((event) => event.method?.endsWith("/list"));
    expect(pages.map((event) => event.params)).toEqual([{ cursor: "" }, { cursor: "next" }]);
  });

  it("runs several requests at once without serialising them", async () => {
    const { session } = await openScripted();
    const order: string[] = [];
    const slow = session
      .callTool("slow", { delayMs: 300 })
      .then((result) => order.push(text(result)));
    expect(session.state).toBe("busy");
    const quick = session.callTool("echo", { value: 1 }).then((result) => order.push(text(result)));
    expect(session.inFlight).toBe(2);
    await Promise.all([slow, quick]);
    expect(order).toEqual(['{"value":1}', "late"]);
    expect(session.state).toBe("idle");
  });

  it("cancels one request by its signal without closing the session, and drops the late answer", async () => {
    const { session, record } = await openScripted();
    const controller = new AbortController();
    const hanging = session.callTool("hang", {}, { signal: controller.signal });
    await waitUntil(
      () => recordedMethods(record).includes("tools/call"),
      "the call to reach the server",
    );
    controller.abort(new Error("the person stopped it"));
    await expect(hanging).rejects.toThrow("the person stopped it");
    // The fixture answers the cancelled id as soon as it hears of the cancellation; that answer
    // arrives before the ping's, so a session that mistook it for a stray would fail the ping.
    await session.ping();
    expect(recordedMethods(record)).toContain("notifications/cancelled");
    expect(session.state).toBe("idle");
    expect(session.reason).toBeNull();
  });

  it("relays progress notifications", async () => {
    const { session } = await openScripted();
    const progress: number[] = [];
    const result = await session.callTool(
      "progress",
      {},
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(text(result)).toBe("done");
    expect(progress).toEqual([1, 2]);
  });

  it("keeps the session open after an MCP error answer", async () => {
    const { session } = await openScripted();
    const failure = session.callTool("fail");
    await expect(failure).rejects.toBeInstanceOf(McpServerError);
    await expect(failure).rejects.toMatchObject({ code: "server_error", rpcCode: -32000 });
    expect(session.state).toBe("idle");
    expect(text(await session.callTool("echo", {}))).toBe("{}");
  });

  it("closes with reason timeout when a request passes its deadline, and kills the server", async () => {
    const { session, record } = await openScripted([], { timeout: 0.5 });
    const ended = closedWith(session);
    const late = session.callTool("slow", { delayMs: 5000 });
    await expect(late).rejects.toBeInstanceOf(McpTimeoutError);
    await expect(late).rejects.toThrow("MCP connection ended: timeout");
    expect(await ended).toBe("timeout");
    await waitUntilGone(recordedPids(record));
    await expect(session.ping()).rejects.toBeInstanceOf(McpClosedError);
    await expect(session.ping()).rejects.toThrow(
      "The MCP connection is closed (timeout); create a new connection.",
    );
  });

  it("closes with reason desynchronized when a reply carries an id no request has", async () => {
    const { session, record } = await openScripted();
    const call = session.callTool("wrong-id");
    await expect(call).rejects.toBeInstanceOf(McpDesynchronizedError);
    await expect(call).rejects.toMatchObject({ code: "desynchronized", reason: "desynchronized" });
    expect(session.reason).toBe("desynchronized");
    await waitUntilGone(recordedPids(record));
  });

  it.each([
    ["null", "null-id"],
    ["no", "no-id"],
  ])("closes with reason desynchronized at once when a reply has %s id", async (_label, tool) => {
    // A deadline far past the test's own: the call must not wait for it.
    const { session } = await openScripted([], { timeout: 600 });
    const call = session.callTool(tool);
    await expect(call).rejects.toBeInstanceOf(McpDesynchronizedError);
    expect(session.reason).toBe("desynchronized");
  });

  it("closes with reason desynchronized when a request is answered twice", async () => {
    const { session } = await openScripted();
    const ended = closedWith(session);
    expect(text(await session.callTool("duplicate"))).toBe("first");
    expect(await ended).toBe("desynchronized");
    await expect(session.callTool("echo")).rejects.toThrow("(desynchronized)");
  });

  it("reports a server that exits mid-call as server_exited", async () => {
    const { session, record } = await openScripted(["--grandchild"]);
    const call = session.callTool("exit");
    await expect(call).rejects.toBeInstanceOf(McpServerExitedError);
    await expect(call).rejects.toThrow("session state is lost");
    await expect(call).rejects.toMatchObject({ exitCode: 7, reason: "server_exited" });
    expect(session.reason).toBe("server_exited");
    await waitUntilGone(recordedPids(record));
  });

  it("fails startup when the server never answers initialize, leaving nothing running", async () => {
    const record = newRecordFile();
    const opening = McpClientSession.open(
      scriptedEntry("silent", record, ["--never-initialize", "--grandchild"]),
      {
        startupTimeout: 1.5,
      },
    );
    await expect(opening).rejects.toBeInstanceOf(McpStartupError);
    await expect(opening).rejects.toThrow('MCP server "silent" did not initialize in time');
    const pids = recordedPids(record);
    expect(pids).toHaveLength(2);
    await waitUntilGone(pids);
  });

  it("fails startup with the exit code and stderr of a server that exits at once", async () => {
    const entry = nodeEntry("broken", "-e", []);
    entry.args = ["-e", "console.error('missing API key'); process.exit(3)"];
    const opening = McpClientSession.open(entry, { startupTimeout: 10 });
    await expect(opening).rejects.toThrow(
      /exited during startup \(exit code 3\)\. Its last output: missing API key/,
    );
  });

  it("fails startup when the command does not exist", async () => {
    const entry = {
      kind: "stdio" as const,
      name: "missing",
      command: "no-such-mcp-server-binary",
      args: [],
      env: {},
    };
    await expect(McpClientSession.open(entry)).rejects.toThrow(
      /MCP server "missing" could not be started: .*ENOENT/,
    );
  });

  it("close() when idle asks the server to exit by closing stdin, then kills its tree", async () => {
    const { session, record } = await openScripted(["--grandchild"]);
    const trees = liveProcessTrees().length;
    await session.close();
    expect(session.reason).toBe("closed");
    expect(readRecord(record).some((event) => event.event === "stdin-end")).toBe(true);
    await waitUntilGone(recordedPids(record));
    expect(liveProcessTrees().length).toBe(trees - 1);
    await session.close();
    expect(session.reason).toBe("closed");
  });

  it("close() kills a server that ignores the end of its stdin after the grace period", async () => {
    const { session, record } = await openScripted(["--ignore-stdin-end"], { timeout: 0.3 });
    await session.close();
    expect(readRecord(record).some((event) => event.event === "stdin-end")).toBe(true);
    await waitUntilGone(recordedPids(record));
  });

  it("close() while a request runs rejects it with 'MCP connection ended: closed'", async () => {
    const { session, record } = await openScripted();
    const running = session.callTool("hang");
    await waitUntil(
      () => recordedMethods(record).includes("tools/call"),
      "the call to reach the server",
    );
    // Handled before the wait: close() resolves only once the tree is gone.
    const rejected = expect(running).rejects.toBeInstanceOf(McpConnectionEndedError);
    await session.close();
    await rejected;
    await expect(running).rejects.toThrow("MCP connection ended: closed");
    // Busy: no graceful shutdown was asked for.
    expect(readRecord(record).some((event) => event.event === "stdin-end")).toBe(false);
  });

  it.each([
    ["close()", (session: McpClientSession) => session.close()],
    ["cancel()", (session: McpClientSession) => session.cancel()],
  ])(
    "%s resolves only once the whole tree is gone, a grandchild that left the group included",
    async (_label, end) => {
      const { session, record } = await openScripted(["--grandchild", "--setsid-grandchild"]);
      const pids = recordedPids(record);
      expect(pids).toHaveLength(3);
      await end(session);
      expect(stillRunning(pids)).toEqual([]);
    },
  );

  it("a timeout kills the whole tree, a grandchild that left the group included", async () => {
    const { session, record } = await openScripted(["--setsid-grandchild"], { timeout: 0.3 });
    const pids = recordedPids(record);
    await expect(session.callTool("hang")).rejects.toBeInstanceOf(McpTimeoutError);
    // close() after the end returns the teardown already under way.
    await session.close();
    expect(stillRunning(pids)).toEqual([]);
  });

  it("kills a grandchild that left the group when the server exits on its own, once sampled", async () => {
    const { session, record } = await openScripted(["--setsid-grandchild"]);
    const pids = recordedPids(record);
    // What the sampler does every few seconds: the grandchild is now known by its start time.
    sampleProcessTrees();
    await expect(session.callTool("exit")).rejects.toBeInstanceOf(McpServerExitedError);
    await session.close();
    expect(stillRunning(pids)).toEqual([]);
  });

  it("cancel() kills the whole process tree at once and is idempotent", async () => {
    const { session, record } = await openScripted(["--grandchild"]);
    const running = session.callTool("hang");
    const rejected = expect(running).rejects.toThrow("MCP connection ended: cancelled");
    await session.cancel();
    await session.cancel();
    await rejected;
    expect(session.reason).toBe("cancelled");
    await waitUntilGone(recordedPids(record));
  });
});

describe("McpClientSession over HTTP", () => {
  function remoteEntry(url: string): McpRemoteServerConfig {
    return {
      kind: "remote",
      name: "remote",
      url,
      headers: { Authorization: "Bearer fixture-token" },
      allowHttp: false,
    };
  }

  it("speaks Streamable HTTP with the configured headers, and ends the session on close", async () => {
    const fixture = await startStreamableHttpFixture();
    fixtures.push(fixture);
    const session = await McpClientSession.open(remoteEntry(fixture.url), { timeout: 5 });
    sessions.push(session);
    expect(session.transportKind).toBe("streamable-http");
    expect(text(await session.callTool("echo", { city: "Lyon" }))).toBe('{"city":"Lyon"}');
    const posts = fixture.received.filter((request) => request.httpMethod === "POST");
    // The 2026-07-28 probe first; this server speaks the 2025 revision, so the handshake follows.
    expect(posts.map((request) => request.rpcMethod)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
    expect(posts.every((request) => request.authorization === "Bearer fixture-token")).toBe(true);
    await session.close();
    expect(fixture.received.some((request) => request.httpMethod === "DELETE")).toBe(true);
  });

  it("falls back to the SSE transport when the first POST is refused with 405", async () => {
    const fixture = await startSseOnlyFixture();
    fixtures.push(fixture);
    const session = await McpClientSession.open(remoteEntry(fixture.url), { timeout: 5 });
    sessions.push(session);
    expect(session.transportKind).toBe("sse");
    expect(text(await session.callTool("echo", { n: 2 }))).toBe('{"n":2}');
    expect(fixture.received[0]).toMatchObject({ httpMethod: "POST", path: "/mcp" });
    const overSse = fixture.received.filter((request) => request.path.startsWith("/messages"));
    expect(overSse.map((request) => request.rpcMethod)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
    expect(
      fixture.received.every((request) => request.authorization === "Bearer fixture-token"),
    ).toBe(true);
  });

  it("closes a remote session whose reply carries a wrong id", async () => {
    const fixture = await startStreamableHttpFixture();
    fixtures.push(fixture);
    const session = await McpClientSession.open(remoteEntry(fixture.url), { timeout: 5 });
    sessions.push(session);
    await expect(session.callTool("wrong-id")).rejects.toBeInstanceOf(McpDesynchronizedError);
    expect(session.reason).toBe("desynchronized");
  });
});
