// @vitest-environment jsdom
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SandboxTransport } from "./sandbox-transport";

const sandboxOrigin = "http://127.0.0.1:45997";
const ping: JSONRPCMessage = {
  jsonrpc: "2.0",
  method: "ui/notifications/sandbox-proxy-ready",
  params: {},
};

const resourceReady: JSONRPCMessage = {
  jsonrpc: "2.0",
  method: "ui/notifications/sandbox-resource-ready",
  params: { html: "<p>view</p>" },
};
const toolInput: JSONRPCMessage = {
  jsonrpc: "2.0",
  method: "ui/notifications/tool-input",
  params: { arguments: {} },
};

let proxyFrame: HTMLIFrameElement;
let otherFrame: HTMLIFrameElement;

beforeEach(() => {
  proxyFrame = document.createElement("iframe");
  otherFrame = document.createElement("iframe");
  document.body.append(proxyFrame, otherFrame);
});

afterEach(() => {
  proxyFrame.remove();
  otherFrame.remove();
});

function deliver(data: unknown, source: Window | null, origin: string) {
  window.dispatchEvent(new MessageEvent("message", { data, source, origin }));
}

describe("SandboxTransport", () => {
  it("hears JSON-RPC from the proxy's window on the sandbox origin only", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    const heard: JSONRPCMessage[] = [];
    transport.onmessage = (message) => heard.push(message);
    await transport.start();

    deliver(ping, proxy, sandboxOrigin);
    deliver(ping, otherFrame.contentWindow, sandboxOrigin); // another frame
    deliver(ping, proxy, "http://127.0.0.1:3000"); // the right frame, navigated to another origin
    deliver(ping, window, window.location.origin); // the page itself
    deliver({ hello: "extension" }, proxy, sandboxOrigin); // not JSON-RPC
    expect(heard).toEqual([ping]);

    await transport.close();
    deliver(ping, proxy, sandboxOrigin);
    expect(heard).toHaveLength(1);
  });

  it("hears nothing but the proxy's own sandbox messages on the window lane", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    const heard: JSONRPCMessage[] = [];
    transport.onmessage = (message) => heard.push(message);
    await transport.start();
    // What a view says comes on its port; on the window it could be anyone's.
    deliver({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }, proxy, sandboxOrigin);
    deliver([ping], proxy, sandboxOrigin);
    expect(heard).toEqual([]);
    await transport.close();
  });

  it("gives the view its own port with sandbox-resource-ready, once, and talks to it there", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const posted: { message: unknown; origin: string; transfer: unknown[] }[] = [];
    vi.spyOn(proxy, "postMessage").mockImplementation(
      ((message: unknown, origin: string, transfer?: unknown[]) =>
        void posted.push({ message, origin, transfer: transfer ?? [] })) as Window["postMessage"],
    );
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    const heard: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (message) => heard.push(message);
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    await transport.send(resourceReady);
    await transport.send(resourceReady);
    expect(posted.map((call) => call.origin)).toEqual([sandboxOrigin, sandboxOrigin]);
    expect(posted[0]?.transfer).toHaveLength(1);
    expect(posted[1]?.transfer).toEqual([]);
    const viewPort = posted[0]?.transfer[0] as MessagePort;

    // The view's side of the port: it hears the host, the host hears it, and what it may not
    // say (the proxy's messages) or cannot be parsed is not taken for the view's.
    const toView = new Promise<unknown>((resolve) => (viewPort.onmessage = (e) => resolve(e.data)));
    await transport.send(toolInput);
    expect(await toView).toEqual(toolInput);
    const initialize = { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} };
    viewPort.postMessage(ping);
    viewPort.postMessage({ jsonrpc: "2.0", id: {}, method: 7 });
    viewPort.postMessage(initialize);
    await vi.waitFor(() => expect(heard).toEqual([initialize]));
    expect(errors).toHaveLength(1);
    expect(posted).toHaveLength(2);
    await transport.close();
    viewPort.close();
  });

  it("posts the proxy's messages only to the sandbox origin", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const postMessage = vi.spyOn(proxy, "postMessage").mockImplementation(() => undefined);
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    await transport.send(ping);
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(ping, sandboxOrigin);
    await transport.close();
  });
});
