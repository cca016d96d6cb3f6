// @vitest-environment jsdom
// The bridge a card creates, joined for real to a view (the ext-apps `App`) over the SDK's
// in-memory transport: what the view asks reaches the card's handlers, and errors reach the view
// as JSON-RPC errors with the server's code.
import { wireError } from "@mcp-chat-host/protocol";
import { App } from "@modelcontextprotocol/ext-apps";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { InMemoryTransport, ProtocolError } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  cardBridgeEvents,
  cardRequestHandlerSetters,
  createCardBridge,
  passedOnRequestsOnly,
  type AppBridgeConstructor,
  type CardPageHandlers,
} from "./card-bridge";
import { RequestError } from "../socket/request-error";
import { toPageError } from "./card-request-error";
import { cardHostCapabilities, cardHostInfo } from "./host-context";

function handlers(overrides: Partial<CardPageHandlers> = {}): CardPageHandlers {
  return {
    callTool: vi.fn(async () => ({ content: [{ type: "text" as const, text: "called" }] })),
    readResource: vi.fn(async (params) => ({ contents: [{ uri: params.uri, text: "body" }] })),
    listResources: vi.fn(async () => ({ resources: [] })),
    listResourceTemplates: vi.fn(async () => ({ resourceTemplates: [] })),
    message: vi.fn(async () => ({})),
    updateModelContext: vi.fn(async () => ({})),
    openLink: vi.fn(async () => ({})),
    downloadFile: vi.fn(async () => ({})),
    requestDisplayMode: vi.fn(async () => ({ mode: "inline" as const })),
    sandboxReady: vi.fn(),
    initialized: vi.fn(),
    sizeChange: vi.fn(),
    loggingMessage: vi.fn(),
    requestTeardown: vi.fn(),
    ...overrides,
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connectPair(pageHandlers: CardPageHandlers, construct?: AppBridgeConstructor) {
  const bridge = createCardBridge(
    {
      hostInfo: cardHostInfo,
      capabilities: cardHostCapabilities({}),
      hostContext: { theme: "light", displayMode: "inline" },
      handlers: pageHandlers,
    },
    construct,
  );
  const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
  await bridge.connect(passedOnRequestsOnly(hostSide));
  const app = new App(
    { name: "test-view", version: "1.0.0" },
    { availableDisplayModes: ["inline", "fullscreen"] },
    { autoResize: false },
  );
  await app.connect(viewSide);
  closers.push(async () => {
    await app.close();
    await bridge.close();
  });
  return { bridge, app, hostSide, viewSide };
}

describe("createCardBridge", () => {
  it("has every request handler set before connect() runs", async () => {
    const seen: Record<string, boolean> = {};
    const construct: AppBridgeConstructor = (hostInfo, capabilities, options) => {
      const bridge = new AppBridge(null, hostInfo, capabilities, options);
      const connect = bridge.connect.bind(bridge);
      bridge.connect = async (transport) => {
        for (const setter of cardRequestHandlerSetters)
          seen[setter] = typeof bridge[setter] === "function";
        return connect(transport);
      };
      return bridge;
    };
    const pageHandlers = handlers();
    await connectPair(pageHandlers, construct);
    expect(seen).toEqual(
      Object.fromEntries(cardRequestHandlerSetters.map((setter) => [setter, true])),
    );
    // The events are listened to from the start too: `initialized` came during app.connect().
    expect(pageHandlers.initialized).toHaveBeenCalledTimes(1);
    expect(cardBridgeEvents).toContain("initialized");
  });

  it("answers ui/initialize with the host's capabilities and context", async () => {
    const { app } = await connectPair(handlers());
    expect(app.getHostCapabilities()).toMatchObject({
      openLinks: {},
      downloadFile: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
    });
    expect(app.getHostContext()).toMatchObject({ theme: "light", displayMode: "inline" });
    expect(app.getHostVersion()).toEqual(cardHostInfo);
  });

  it("passes every view request to its handler and returns the handler's answer", async () => {
    const pageHandlers = handlers({
      requestDisplayMode: vi.fn(async () => ({ mode: "fullscreen" as const })),
      openLink: vi.fn(async () => ({ isError: true })),
    });
    const { app } = await connectPair(pageHandlers);

    expect(
      await app.callServerTool({ name: "get-time", arguments: { zone: "UTC" } }),
    ).toMatchObject({
      content: [{ type: "text", text: "called" }],
    });
    expect(pageHandlers.callTool).toHaveBeenCalledWith(
      expect.objectContaining({ name: "get-time", arguments: { zone: "UTC" } }),
    );
    expect(await app.readServerResource({ uri: "ui://a/b" })).toMatchObject({
      contents: [{ uri: "ui://a/b", text: "body" }],
    });
    expect(await app.listServerResources({})).toMatchObject({ resources: [] });
    await app.sendMessage({ role: "user", content: [{ type: "text", text: "hello" }] });
    expect(pageHandlers.message).toHaveBeenCalledWith({
      role: "user",
      content: [{ type: "text", text: "hello" }],
    });
    await app.updateModelContext({ content: [{ type: "text", text: "state" }] });
    expect(pageHandlers.updateModelContext).toHaveBeenCalledTimes(1);
    expect(await app.openLink({ url: "javascript:alert(1)" })).toMatchObject({ isError: true });
    expect(await app.requestDisplayMode({ mode: "fullscreen" })).toEqual({ mode: "fullscreen" });
    await app.downloadFile({
      contents: [
        { type: "resource", resource: { uri: "file:///a.txt", text: "a", mimeType: "text/plain" } },
      ],
    });
    expect(pageHandlers.downloadFile).toHaveBeenCalledTimes(1);

    await app.sendLog({ level: "info", logger: "view", data: { step: 1 } });
    await app.sendSizeChanged({ width: 300, height: 420 });
    await app.requestTeardown();
    await vi.waitFor(() => expect(pageHandlers.requestTeardown).toHaveBeenCalledTimes(1), {
      timeout: 2_000,
    });
    expect(pageHandlers.loggingMessage).toHaveBeenCalledWith(
      expect.objectContaining({ level: "info", logger: "view", data: { step: 1 } }),
    );
    expect(pageHandlers.sizeChange).toHaveBeenCalledWith({ width: 300, height: 420 });
  });

  it("hears the proxy's sandbox-proxy-ready", async () => {
    let heard: (params: unknown) => void = () => undefined;
    const ready = new Promise((resolve) => (heard = resolve));
    const { viewSide } = await connectPair(handlers({ sandboxReady: (params) => heard(params) }));
    await viewSide.send({
      jsonrpc: "2.0",
      method: "ui/notifications/sandbox-proxy-ready",
      params: {},
    });
    expect(await ready).toEqual({});
  });

  it("answers a request the host does not pass on with -32601 naming the method", async () => {
    const pageHandlers = handlers();
    const { viewSide } = await connectPair(pageHandlers);
    const refused = [
      "sampling/createMessage",
      "tools/list",
      "prompts/list",
      "prompts/get",
      "resources/subscribe",
      "completion/complete",
      "logging/setLevel",
      "elicitation/create",
      "initialize",
      "server/discover",
      "subscriptions/listen",
      "ui/notifications/initialized",
      "ui/not-a-method",
      "anything/else",
    ];
    const answers = new Map<unknown, unknown>();
    const ready = new Promise<void>((resolve) => {
      viewSide.onmessage = (message) => {
        if ("id" in message) answers.set(message.id, message);
        if (answers.size === refused.length + 1) resolve();
      };
    });
    for (const [index, method] of refused.entries()) {
      await viewSide.send({ jsonrpc: "2.0", id: `refused-${index}`, method, params: {} });
    }
    await viewSide.send({ jsonrpc: "2.0", id: "ping", method: "ping" });
    await ready;
    for (const [index, method] of refused.entries()) {
      expect(answers.get(`refused-${index}`), method).toEqual({
        jsonrpc: "2.0",
        id: `refused-${index}`,
        error: { code: -32601, message: `The host doesn't pass on ${method}.` },
      });
    }
    // What the host does pass on still works.
    expect(answers.get("ping")).toMatchObject({ id: "ping", result: {} });
    expect(pageHandlers.callTool).not.toHaveBeenCalled();
  });

  it("still answers every method it passes on after refusing others", async () => {
    const pageHandlers = handlers();
    const { app, viewSide } = await connectPair(pageHandlers);
    await viewSide.send({ jsonrpc: "2.0", id: "x", method: "tools/list", params: {} });
    expect(await app.callServerTool({ name: "get-time" })).toMatchObject({
      content: [{ type: "text", text: "called" }],
    });
    expect(await app.listServerResources({})).toMatchObject({ resources: [] });
    expect(await app.readServerResource({ uri: "ui://a/b" })).toMatchObject({
      contents: [{ uri: "ui://a/b" }],
    });
    await app.sendMessage({ role: "user", content: [{ type: "text", text: "hi" }] });
    await app.updateModelContext({ content: [{ type: "text", text: "state" }] });
    expect(await app.requestDisplayMode({ mode: "fullscreen" })).toEqual({ mode: "inline" });
    expect(await app.openLink({ url: "https://example.com" })).toEqual({});
    expect(pageHandlers.message).toHaveBeenCalledTimes(1);
    expect(pageHandlers.updateModelContext).toHaveBeenCalledTimes(1);
  });

  it("gives the view the server's JSON-RPC code and message when a call is refused", async () => {
    const refused = new RequestError(
      wireError("refused", "Deleting is not allowed from this card.", { rpcCode: -32602 }),
    );
    const pageHandlers = handlers({
      callTool: vi.fn(async () => {
        throw toPageError(refused);
      }),
      readResource: vi.fn(async () => {
        throw toPageError(new RequestError(wireError("unavailable", "The server is gone.")));
      }),
    });
    const { app } = await connectPair(pageHandlers);
    const error = await app
      .callServerTool({ name: "delete-all" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("Deleting is not allowed"),
    });
    const unavailable = await app
      .readServerResource({ uri: "ui://x" })
      .catch((caught: unknown) => caught);
    expect(unavailable).toMatchObject({
      code: -32603,
      message: expect.stringContaining("The server is gone."),
    });
  });
});
