// @vitest-environment jsdom
/// <reference lib="dom" />
// The proxy page loaded for real: a sandbox listener on 127.0.0.1 serves it, and this jsdom
// window (http://localhost:3000) is the host page that frames it. jsdom's postMessage carries
// neither `origin` nor `source`, so messages *to* the proxy are dispatched as MessageEvents with
// the origin and source a browser would set; messages *from* the proxy are real postMessage calls.
// Negative checks are ordered: a control message sent after the forbidden one must arrive first.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intersectSandboxTokens } from "../frame/sandbox-tokens";
import { buildProxyUrl } from "../params/proxy-params";
import { handleSandboxRequest } from "../server/sandbox-request";
import { proxyScript } from "./proxy-script";
import { sandboxProxyReadyMethod, sandboxResourceReadyMethod } from "./sandbox-methods";

const hostOrigin = window.location.origin;
const waitLimitMs = 5_000;
let sandboxServer: Server;
let foreignServer: Server;
let sandboxOrigin = "";
let foreignOrigin = "";

function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      resolve({ server, origin: `http://127.0.0.1:${address.port}` });
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Resolves with the first message on `target` whose data passes `accept`; rejects after the limit. */
function nextMessage(
  target: Window,
  accept: (data: unknown) => boolean,
  what: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener("message", listener);
      reject(new Error(`No ${what} within ${waitLimitMs} ms.`));
    }, waitLimitMs);
    function listener(event: MessageEvent): void {
      if (!accept(event.data)) return;
      clearTimeout(timer);
      target.removeEventListener("message", listener);
      resolve(event.data);
    }
    target.addEventListener("message", listener);
  });
}

/** Records every message `target` receives until stopped. */
function record(target: Window): { messages: unknown[]; stop: () => void } {
  const messages: unknown[] = [];
  const listener = (event: MessageEvent): void => void messages.push(event.data);
  target.addEventListener("message", listener);
  return { messages, stop: () => target.removeEventListener("message", listener) };
}

/** Records the target origin of every postMessage call made on `target` until stopped. */
function recordTargetOrigins(target: Window): { origins: string[]; stop: () => void } {
  const origins: string[] = [];
  const original = target.postMessage;
  target.postMessage = function (this: Window, message: unknown, targetOrigin: string) {
    origins.push(targetOrigin);
    return Reflect.apply(original, this, [message, targetOrigin]) as undefined;
  } as Window["postMessage"];
  return { origins, stop: () => void (target.postMessage = original) };
}

function method(name: string): (data: unknown) => boolean {
  return (data) =>
    typeof data === "object" && data !== null && (data as { method?: unknown }).method === name;
}

/** Delivers a message to the proxy as a browser would, with the given origin and source. */
function deliver(proxy: Window, data: unknown, origin: string, source: Window | null): void {
  // The event is made in the proxy's own realm, as the browser would.
  const realm = proxy as unknown as typeof globalThis;
  proxy.dispatchEvent(new realm.MessageEvent("message", { data, origin, source }));
}

/** Frames the proxy in this (host) page and waits for its ready notification. */
async function openProxy(
  query: Parameters<typeof buildProxyUrl>[1] = {},
): Promise<{ frame: HTMLIFrameElement; proxy: Window }> {
  const frame = document.createElement("iframe");
  const ready = nextMessage(window, method(sandboxProxyReadyMethod), "sandbox-proxy-ready");
  frame.src = buildProxyUrl(sandboxOrigin, query);
  document.body.appendChild(frame);
  expect(await ready).toEqual({ jsonrpc: "2.0", method: sandboxProxyReadyMethod, params: {} });
  const proxy = frame.contentWindow;
  if (proxy === null) throw new Error("The proxy frame has no window.");
  return { frame, proxy };
}

function innerFrame(proxy: Window): HTMLIFrameElement | null {
  return proxy.document.querySelector("iframe[srcdoc]");
}

/**
 * The host page's window as the proxy sees it (`window.parent`). Under vitest the global `window`
 * is Node's global object with jsdom's properties copied on, not jsdom's window itself.
 */
function hostWindow(proxy: Window): Window {
  return proxy.parent;
}

/** The text of the refusal notice, if the proxy showed one (the script's own text excluded). */
function notice(page: Document): string {
  return Array.from(page.querySelectorAll("body > p"))
    .map((element) => element.textContent)
    .join("\n");
}

function resourceReady(params: Record<string, unknown>): unknown {
  return { jsonrpc: "2.0", method: sandboxResourceReadyMethod, params };
}

beforeAll(async () => {
  ({ server: sandboxServer, origin: sandboxOrigin } = await listen((request, response) => {
    const answer = handleSandboxRequest(request.url ?? "/", { hostOrigin });
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  }));
  ({ server: foreignServer, origin: foreignOrigin } = await listen((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end(`<!doctype html><iframe src="${sandboxOrigin}/proxy"></iframe>`);
  }));
});

afterAll(async () => {
  document.body.replaceChildren();
  await Promise.all([close(sandboxServer), close(foreignServer)]);
});

describe("proxy script under the host page", () => {
  it("creates the view's frame from sandbox-resource-ready, once, with filtered tokens and allow", async () => {
    const { proxy } = await openProxy({ permissions: { camera: {}, clipboardWrite: {} } });
    expect(innerFrame(proxy)).toBeNull();

    deliver(
      proxy,
      resourceReady({
        html: "<p>view</p>",
        sandbox: "allow-scripts allow-top-navigation allow-popups",
      }),
      hostOrigin,
      hostWindow(proxy),
    );
    const inner = innerFrame(proxy);
    expect(inner?.getAttribute("sandbox")).toBe(
      "allow-scripts allow-popups allow-popups-to-escape-sandbox",
    );
    expect(inner?.getAttribute("allow")).toBe("camera; clipboard-write");
    expect(inner?.getAttribute("srcdoc")).toBe("<p>view</p>");

    deliver(
      proxy,
      resourceReady({ html: "<p>second</p>", sandbox: "allow-scripts allow-same-origin" }),
      hostOrigin,
      hostWindow(proxy),
    );
    expect(proxy.document.querySelectorAll("iframe")).toHaveLength(1);
    expect(innerFrame(proxy)?.getAttribute("srcdoc")).toBe("<p>view</p>");
  });

  it("uses the default tokens when the host asks for none, and ignores a resource without html", async () => {
    const { proxy } = await openProxy();
    deliver(proxy, resourceReady({ html: 42 }), hostOrigin, hostWindow(proxy));
    expect(innerFrame(proxy)).toBeNull();
    deliver(proxy, resourceReady({ html: "<p>ok</p>" }), hostOrigin, hostWindow(proxy));
    expect(innerFrame(proxy)?.getAttribute("sandbox")).toBe(
      "allow-scripts allow-same-origin allow-forms",
    );
    expect(innerFrame(proxy)?.hasAttribute("allow")).toBe(false);
  });

  it("grants the same tokens as intersectSandboxTokens", async () => {
    for (const requested of [
      "ALLOW-SCRIPTS\tallow-forms allow-forms",
      "allow-popups-to-escape-sandbox allow-scripts",
      "",
      "allow-modals allow-downloads allow-top-navigation allow-same-origin allow-popups",
    ]) {
      const { proxy } = await openProxy();
      deliver(
        proxy,
        resourceReady({ html: "<p>view</p>", sandbox: requested }),
        hostOrigin,
        hostWindow(proxy),
      );
      expect(innerFrame(proxy)?.getAttribute("sandbox"), requested).toBe(
        intersectSandboxTokens(requested),
      );
    }
  });

  it("ignores sandbox-resource-ready from a wrong origin, another window, or the view", async () => {
    const { proxy } = await openProxy();
    deliver(proxy, resourceReady({ html: "<p>a</p>" }), "http://evil.example", hostWindow(proxy));
    deliver(proxy, resourceReady({ html: "<p>b</p>" }), hostOrigin, proxy);
    deliver(proxy, resourceReady({ html: "<p>c</p>" }), hostOrigin, null);
    expect(innerFrame(proxy)).toBeNull();

    deliver(proxy, resourceReady({ html: "<p>view</p>" }), hostOrigin, hostWindow(proxy));
    const view = innerFrame(proxy)?.contentWindow;
    if (!view) throw new Error("no view frame");
    deliver(proxy, resourceReady({ html: "<p>forged</p>" }), sandboxOrigin, view);
    expect(innerFrame(proxy)?.getAttribute("srcdoc")).toBe("<p>view</p>");
  });

  it("forwards host messages to the view only from the host origin, and never sandbox-* ones", async () => {
    const { proxy } = await openProxy();
    deliver(proxy, resourceReady({ html: "<p>view</p>" }), hostOrigin, hostWindow(proxy));
    const view = innerFrame(proxy)?.contentWindow;
    if (!view) throw new Error("no view frame");
    const received = record(view);
    const targets = recordTargetOrigins(view);
    const control = nextMessage(view, method("control"), "the control message");

    deliver(
      proxy,
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } },
      hostOrigin,
      hostWindow(proxy),
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "from-wrong-origin" },
      "http://evil.example",
      hostWindow(proxy),
    );
    deliver(proxy, { jsonrpc: "2.0", method: "from-other-window" }, hostOrigin, proxy);
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "ui/notifications/sandbox-something", params: {} },
      hostOrigin,
      hostWindow(proxy),
    );
    deliver(proxy, { jsonrpc: "2.0", method: "control" }, hostOrigin, hostWindow(proxy));
    await control;
    received.stop();
    targets.stop();
    expect(received.messages).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } },
      { jsonrpc: "2.0", method: "control" },
    ]);
    // The view shares the sandbox origin (allow-same-origin), so "*" is never needed.
    expect(targets.origins).toEqual([sandboxOrigin, sandboxOrigin]);
  });

  it("forwards view messages to the host only from its own frame and origin, and never sandbox-* ones", async () => {
    const { proxy } = await openProxy();
    const stranger = document.createElement("iframe");
    proxy.document.body.appendChild(stranger);
    deliver(proxy, resourceReady({ html: "<p>view</p>" }), hostOrigin, hostWindow(proxy));
    const view = innerFrame(proxy)?.contentWindow;
    if (!view || !stranger.contentWindow) throw new Error("no frames");
    const received = record(window);
    const targets = recordTargetOrigins(hostWindow(proxy));
    const control = nextMessage(window, method("control"), "the control message");

    deliver(
      proxy,
      { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} },
      sandboxOrigin,
      view,
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: sandboxProxyReadyMethod, params: {} },
      sandboxOrigin,
      view,
    );
    deliver(
      proxy,
      [{ jsonrpc: "2.0", method: sandboxResourceReadyMethod, params: {} }],
      sandboxOrigin,
      view,
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "after-navigating-away" },
      "https://elsewhere.example",
      view,
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "from-a-stranger" },
      sandboxOrigin,
      stranger.contentWindow,
    );
    deliver(proxy, { jsonrpc: "2.0", method: "control" }, sandboxOrigin, view);
    await control;
    received.stop();
    targets.stop();
    expect(received.messages).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} },
      { jsonrpc: "2.0", method: "control" },
    ]);
    expect(targets.origins).toEqual([hostOrigin, hostOrigin]);
  });

  it("expects an opaque origin from a view without allow-same-origin", async () => {
    const { proxy } = await openProxy();
    deliver(
      proxy,
      resourceReady({ html: "<p>view</p>", sandbox: "allow-scripts" }),
      hostOrigin,
      hostWindow(proxy),
    );
    const view = innerFrame(proxy)?.contentWindow;
    if (!view) throw new Error("no view frame");
    const toHost = record(window);
    const hostControl = nextMessage(window, method("control"), "the control message");
    deliver(proxy, { jsonrpc: "2.0", method: "claims-sandbox-origin" }, sandboxOrigin, view);
    deliver(proxy, { jsonrpc: "2.0", method: "control" }, "null", view);
    await hostControl;
    toHost.stop();
    expect(toHost.messages).toEqual([{ jsonrpc: "2.0", method: "control" }]);

    // An opaque origin cannot be named, so towards this frame the proxy posts with "*".
    const targets = recordTargetOrigins(view);
    const toView = nextMessage(view, method("to-view"), "the message to the view");
    deliver(proxy, { jsonrpc: "2.0", method: "to-view" }, hostOrigin, hostWindow(proxy));
    await toView;
    targets.stop();
    expect(targets.origins).toEqual(["*"]);
  });

  it("does nothing under a parent that is not the host", async () => {
    const frame = document.createElement("iframe");
    const loaded = new Promise<void>((resolve) =>
      frame.addEventListener("load", () => resolve(), { once: true }),
    );
    frame.src = `${foreignOrigin}/`;
    document.body.appendChild(frame);
    await loaded;
    const proxyFrame = frame.contentDocument?.querySelector("iframe");
    const proxy = proxyFrame?.contentWindow;
    if (!proxyFrame || !proxy) throw new Error("no proxy frame");
    if (proxy.document.readyState !== "complete") {
      await new Promise<void>((resolve) =>
        proxyFrame.addEventListener("load", () => resolve(), { once: true }),
      );
    }
    expect(notice(proxy.document)).toContain("only works inside the chat page");
    deliver(proxy, resourceReady({ html: "<p>view</p>" }), foreignOrigin, frame.contentWindow);
    deliver(proxy, resourceReady({ html: "<p>view</p>" }), hostOrigin, frame.contentWindow);
    expect(innerFrame(proxy)).toBeNull();
  });
});

describe("proxy script opened top-level", () => {
  it("shows a notice, posts nothing and does not listen", async () => {
    // Make every other check pass, so that only "window.top === window" can stop the script:
    // a host origin other than this page's, and a referrer from that origin.
    const pretendHost = "http://127.0.0.1:1";
    const meta = document.createElement("meta");
    meta.name = "mcp-host-origin";
    meta.content = pretendHost;
    document.head.appendChild(meta);
    Object.defineProperty(document, "referrer", { value: `${pretendHost}/`, configurable: true });
    const self = document.defaultView;
    if (self === null) throw new Error("no window");
    const posted = recordTargetOrigins(self);
    const script = document.createElement("script");
    script.textContent = proxyScript;
    document.body.appendChild(script);
    posted.stop();
    expect(notice(document)).toContain("only works inside the chat page");
    expect(posted.origins).toEqual([]);
    deliver(self, resourceReady({ html: "<p>view</p>" }), pretendHost, self);
    expect(document.querySelector("iframe[srcdoc]")).toBeNull();
    meta.remove();
    Reflect.deleteProperty(document, "referrer");
  });
});
