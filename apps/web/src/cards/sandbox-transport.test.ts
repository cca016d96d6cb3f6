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

  it("reports malformed JSON-RPC as an error instead of passing it on", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    const onmessage = vi.fn();
    const onerror = vi.fn();
    transport.onmessage = onmessage;
    transport.onerror = onerror;
    await transport.start();
    deliver({ jsonrpc: "2.0", id: {}, method: 7 }, proxy, sandboxOrigin);
    expect(onmessage).not.toHaveBeenCalled();
    expect(onerror).toHaveBeenCalledTimes(1);
    await transport.close();
  });

  it("posts only to the sandbox origin", async () => {
    const proxy = proxyFrame.contentWindow as Window;
    const postMessage = vi.spyOn(proxy, "postMessage").mockImplementation(() => undefined);
    const transport = new SandboxTransport(proxy, sandboxOrigin);
    await transport.send(ping);
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(ping, sandboxOrigin);
  });
});
