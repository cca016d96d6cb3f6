// Both MCP revisions, end to end through a real host: a remote
// server that speaks only the 2026-07-28 revision (no `initialize`; capabilities in every
// request's `_meta`; `server/discover`) gets the MCP Apps capability on every request and opens
// cards; a server that speaks only the 2025 revision (`initialize`) still does. Both servers are
// the v2 server SDK's own (`createMcpHandler` with `legacy: "reject"`, and a sessionful
// Streamable HTTP server), and both refuse to serve a view to a client that did not declare the
// UI extension, the way each revision lets a server check it.
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  getUiCapability,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
} from "@modelcontextprotocol/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { parseMcpConfig } from "@mcp-chat-host/connection";
import { mcpChatHost } from "../src/mcp-chat-host";
import { configSourceFactory } from "../src/sources/config-source";
import {
  serveMcpOverHttp,
  type HttpMcpServer,
  type McpServerEra,
} from "../src/sources/fixtures/serve-mcp-over-http";
import { mcpClient } from "../src/sources/mcp-client";
import { openCard, startHost, type TestHost } from "./harness";

const PAGE = "<!doctype html><html><body><p>Clock</p></body></html>";
const PAGE_URI = "ui://clock/page";
const UI_CAPABILITY = { mimeTypes: [RESOURCE_MIME_TYPE] };

let host: TestHost | null = null;
let server: HttpMcpServer | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
  await server?.close();
  server = null;
});

/** The capabilities a request declared: in its `_meta` (2026-07-28), else at `initialize` (2025). */
function declaredCapabilities(
  server: McpServer,
  context: { mcpReq: { envelope?: Record<string, unknown> } },
): ClientCapabilities | undefined {
  const perRequest = context.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY];
  if (perRequest !== undefined) return perRequest as ClientCapabilities;
  return server.server.getClientCapabilities();
}

/** Refuses to serve a view to a client that did not declare MCP Apps. */
function requireUi(server: McpServer, context: { mcpReq: { envelope?: Record<string, unknown> } }) {
  if (
    getUiCapability(declaredCapabilities(server, context))?.mimeTypes?.includes(RESOURCE_MIME_TYPE)
  )
    return;
  throw new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [EXTENSION_ID]: UI_CAPABILITY } },
  });
}

/** A clock app: `show-time` opens its view; the view may call `tick`. */
function clockServer(): McpServer {
  const server = new McpServer({ name: "clock", version: "1.0.0" });
  registerAppTool(
    server,
    "show-time",
    {
      title: "Show time",
      description: "Shows the time in a view.",
      inputSchema: {},
      _meta: { ui: { resourceUri: PAGE_URI } },
    },
    async (_args, context) => {
      requireUi(server, context as never);
      return { content: [{ type: "text", text: "It is noon." }] };
    },
  );
  registerAppTool(
    server,
    "tick",
    {
      description: "Advances the clock (from the view).",
      inputSchema: {},
      _meta: { ui: { resourceUri: PAGE_URI, visibility: ["app"] } },
    },
    async (_args, context) => {
      requireUi(server, context as never);
      return { content: [{ type: "text", text: "Tick." }] };
    },
  );
  registerAppResource(server, "Clock", PAGE_URI, {}, async (_uri, context) => {
    requireUi(server, context as never);
    return { contents: [{ uri: PAGE_URI, mimeType: RESOURCE_MIME_TYPE, text: PAGE }] };
  });
  return server;
}

/** The JSON-RPC requests (not notifications) a server received, with their params. */
function rpcRequests(served: HttpMcpServer) {
  return served.requests.flatMap((request) => {
    const body = request.body as
      { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
    if (request.method !== "POST" || body?.id === undefined || typeof body.method !== "string")
      return [];
    return [{ method: body.method, meta: body.params?._meta }];
  });
}

/**
 * Opens a clock card through a whole host turn; the view's page, a call from it, and the log.
 * `via`: an `mcpClient()` source in code, or a `url` entry of the configuration file (which goes
 * through the connection package).
 */
async function openClockCard(era: McpServerEra, via: "mcpClient" | "config" = "mcpClient") {
  server = await serveMcpOverHttp(clockServer, era);
  const url = server.url;
  const config = parseMcpConfig({ mcpServers: { clock: { url, timeout: 10 } } });
  host = await startHost({
    session(session) {
      const source =
        via === "mcpClient"
          ? mcpClient(url, { name: "clock", timeout: 10 })
          : configSourceFactory(config.servers["clock"]!, { timeout: 10 });
      mcpChatHost(session.chat(), source);
    },
  });
  const client = await host.connect();
  await client.value("session:hello", {});
  const card = await openCard(client, "chat-1", "show-time");
  const attach = await client.value("card:attach", { instanceId: card.instanceId });
  const fromView = await client.value("card:call-tool", {
    instanceId: card.instanceId,
    name: "tick",
    arguments: {},
  });
  return { card, attach, fromView, requests: rpcRequests(server) };
}

describe("MCP protocol revisions", () => {
  it("opens a card of a server that speaks only 2026-07-28, declaring MCP Apps on every request", async () => {
    const { card, attach, fromView, requests } = await openClockCard("modern");
    expect(card).toMatchObject({ source: "clock", tool: "show-time", chatId: "chat-1" });
    expect(card.result?.["content"]).toEqual([{ type: "text", text: "It is noon." }]);
    expect(attach.page.html).toBe(PAGE);
    expect(attach.appTools).toContain("tick");
    expect(fromView["content"]).toEqual([{ type: "text", text: "Tick." }]);

    const methods = requests.map((request) => request.method);
    expect(methods).not.toContain("initialize");
    expect(methods[0]).toBe("server/discover");
    expect(methods).toEqual(expect.arrayContaining(["tools/list", "tools/call", "resources/read"]));
    // Every request, the discovery probe included, carries the revision and the UI extension.
    for (const request of requests) {
      expect(request.meta?.[PROTOCOL_VERSION_META_KEY], request.method).toBe("2026-07-28");
      expect(request.meta?.[CLIENT_CAPABILITIES_META_KEY], request.method).toMatchObject({
        extensions: { [EXTENSION_ID]: UI_CAPABILITY },
      });
    }
  });

  it.each(["modern", "session"] as const)(
    "opens a card of a %s server listed in the configuration file",
    async (era) => {
      const { card, attach, fromView } = await openClockCard(era, "config");
      expect(card.result?.["content"]).toEqual([{ type: "text", text: "It is noon." }]);
      expect(attach.page.html).toBe(PAGE);
      expect(fromView["content"]).toEqual([{ type: "text", text: "Tick." }]);
    },
  );

  it("opens a card of a server that speaks only the 2025 revision, declaring MCP Apps at initialize", async () => {
    const { card, attach, fromView, requests } = await openClockCard("session");
    expect(card.result?.["content"]).toEqual([{ type: "text", text: "It is noon." }]);
    expect(attach.page.html).toBe(PAGE);
    expect(fromView["content"]).toEqual([{ type: "text", text: "Tick." }]);

    const initialize = requests.filter((request) => request.method === "initialize");
    expect(initialize).toHaveLength(1);
    const body = server!.requests.find((request) => request.rpcMethod === "initialize")?.body as {
      params: { capabilities: ClientCapabilities; protocolVersion: string };
    };
    expect(body.params.capabilities).toMatchObject({
      extensions: { [EXTENSION_ID]: UI_CAPABILITY },
    });
    expect(body.params.protocolVersion).not.toBe("2026-07-28");
    // The client probed for the newer revision first, then fell back to the handshake.
    const methods = requests.map((request) => request.method);
    expect(methods.indexOf("server/discover")).toBe(0);
    expect(methods.indexOf("initialize")).toBeGreaterThan(0);
    // After the handshake the 2025 revision carries no per-request capabilities.
    const later = requests.slice(methods.indexOf("initialize") + 1);
    expect(later.map((request) => request.method)).toEqual(
      expect.arrayContaining(["tools/list", "tools/call", "resources/read"]),
    );
    for (const request of later) {
      expect(request.meta?.[CLIENT_CAPABILITIES_META_KEY], request.method).toBeUndefined();
    }
  });

  it.each(["modern", "session"] as const)(
    "the %s test server refuses a client that does not declare MCP Apps",
    async (era) => {
      server = await serveMcpOverHttp(clockServer, era);
      const client = new Client(
        { name: "plain-client", version: "1.0.0" },
        { versionNegotiation: { mode: "auto" } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        await expect(client.readResource({ uri: PAGE_URI })).rejects.toMatchObject({
          code: -32021,
        });
        // A tool's own refusal comes back as a failed result.
        expect(await client.callTool({ name: "show-time", arguments: {} })).toMatchObject({
          isError: true,
          content: [{ type: "text", text: "Missing required client capabilities: extensions" }],
        });
      } finally {
        await client.close();
      }
    },
  );
});
