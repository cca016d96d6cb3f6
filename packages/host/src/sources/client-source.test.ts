import { InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ClientSource } from "./client-source";
import type { ClientSourceOptions } from "./client-source-options";
import { SourceError } from "./source-error";

interface Fixture {
  source: ClientSource;
  /** The server of the latest connection. */
  server: () => McpServer;
  /** How many transports were opened. */
  opens: () => number;
  /** How many `tools/list` requests the server received. */
  listings: () => number;
  /** How many times the source shut its server down. */
  shutdowns: () => number;
}

const sources: ClientSource[] = [];
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

function buildServer(): McpServer {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes.", inputSchema: z.object({ text: z.string() }) },
    (args) => ({
      content: [{ type: "text", text: args.text }],
    }),
  );
  server.registerTool(
    "hang",
    { description: "Never answers." },
    () => new Promise(() => undefined),
  );
  server.registerTool("client-capabilities", { description: "What the client declared." }, () => ({
    content: [{ type: "text", text: JSON.stringify(server.server.getClientCapabilities()) }],
  }));
  return server;
}

function fixture(options: Partial<ClientSourceOptions> & { gate?: Promise<void> } = {}): Fixture {
  let server: McpServer | undefined;
  let opens = 0;
  let listings = 0;
  let shutdowns = 0;
  const source = new ClientSource({
    key: "fixture",
    kind: "connection",
    openTransport: async () => {
      opens += 1;
      const current = buildServer();
      server = current;
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await current.connect(serverTransport);
      const receive = serverTransport.onmessage;
      serverTransport.onmessage = (message, extra) => {
        if ("method" in message && message.method === "tools/list") listings += 1;
        receive?.(message, extra);
      };
      await options.gate;
      return {
        transport: clientTransport,
        shutdown: async () => {
          shutdowns += 1;
          await current.close();
        },
      };
    },
    ...options,
  });
  sources.push(source);
  return {
    source,
    server: () => {
      if (server === undefined) throw new Error("not connected yet");
      return server;
    },
    opens: () => opens,
    listings: () => listings,
    shutdowns: () => shutdowns,
  };
}

describe("ClientSource", () => {
  it("connects on first use, once, even for concurrent requests", async () => {
    const { source, opens } = fixture();
    expect(opens()).toBe(0);
    const [tools, echoed] = await Promise.all([
      source.tools(),
      source.callTool("echo", { text: "hi" }),
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "hang", "client-capabilities"]);
    expect(echoed.content).toEqual([{ type: "text", text: "hi" }]);
    expect(opens()).toBe(1);
  });

  it("declares the MCP Apps extension to the server", async () => {
    const { source } = fixture();
    const result = await source.callTool("client-capabilities", {});
    const [block] = result.content;
    const declared = JSON.parse(block?.type === "text" ? block.text : "{}") as Record<
      string,
      unknown
    >;
    expect(declared["extensions"]).toEqual({
      "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] },
    });
  });

  it("serves the tool list from its cache until the server says it changed", async () => {
    const { source, server, listings } = fixture();
    await source.tools();
    await source.tools();
    expect(listings()).toBe(1);
    const changed = new Promise<void>((resolve) => source.onToolsChanged(resolve));
    server().registerTool("added", { description: "Added later." }, () => ({ content: [] }));
    await changed;
    expect(source.cachedTools()).toBeUndefined();
    expect((await source.tools()).map((tool) => tool.name)).toEqual([
      "echo",
      "hang",
      "client-capabilities",
      "added",
    ]);
    expect(listings()).toBe(2);
    await source.tools({ refresh: true });
    expect(listings()).toBe(3);
  });

  it("lists again once the tool list's lifetime has passed", async () => {
    let now = 1_000;
    const { source, listings } = fixture({ toolsTtlMs: 60_000, now: () => now });
    await source.tools();
    now += 59_999;
    await source.tools();
    expect(listings()).toBe(1);
    now += 2;
    await source.tools();
    expect(listings()).toBe(2);
    // The stale list stays readable without asking the server.
    now += 60_001;
    expect(source.cachedTools()?.map((tool) => tool.name)).toEqual([
      "echo",
      "hang",
      "client-capabilities",
    ]);
  });

  it("turns a server's JSON-RPC error into a protocol error with its code", async () => {
    const { source } = fixture();
    const error = await source.readResource("ui://nothing/here").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe("protocol");
    expect(typeof (error as SourceError).rpcCode).toBe("number");
  });

  it("gives up on a call after its timeout", async () => {
    const { source } = fixture();
    await expect(source.callTool("hang", {}, { timeout: 0.05 })).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("notices the server going away: closed, listeners told, running calls fail", async () => {
    const { source, server } = fixture();
    await source.tools();
    const closed = new Promise<void>((resolve) => source.onClose(resolve));
    const running = source.callTool("hang", {});
    await server().close();
    await closed;
    expect(source.closed).toBe(true);
    await expect(running).rejects.toMatchObject({ code: "closed" });
    await expect(source.tools()).rejects.toMatchObject({ code: "closed" });
  });

  it("closes without connecting when it was never used", async () => {
    const { source, opens } = fixture();
    await source.close();
    expect(opens()).toBe(0);
    await expect(source.callTool("echo", { text: "x" })).rejects.toMatchObject({ code: "closed" });
  });

  it("shuts a connection down that was still being made when it closed", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { source, shutdowns, opens } = fixture({ gate });
    const listing = source.tools();
    await Promise.resolve();
    const closing = source.close();
    release();
    await closing;
    await expect(listing).rejects.toMatchObject({ code: "closed" });
    expect(opens()).toBe(1);
    expect(shutdowns()).toBe(1);
  });

  it("refuses a timeout that is not a positive number of seconds", () => {
    for (const timeout of [0, -5, Number.NaN]) {
      expect(
        () =>
          new ClientSource({
            key: "x",
            kind: "app",
            timeout,
            openTransport: () => Promise.reject(new Error()),
          }),
      ).toThrow("`timeout` must be a positive number of seconds.");
    }
  });
});
