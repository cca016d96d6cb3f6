// @vitest-environment jsdom
/// <reference lib="dom" />
// The proxy page loaded for real: a sandbox listener on 127.0.0.1 serves it (and the view's page),
// and this jsdom window (http://localhost:3000) is the host page that frames it. Browsers resolve
// every `*.localhost` name to this machine themselves; Node asks the system resolver, which may
// not, so this file resolves them to 127.0.0.1 as a browser would. jsdom's postMessage carries
// neither `origin` nor `source`, so messages *to* the proxy are dispatched as MessageEvents with
// the origin and source a browser would set; messages *from* the proxy are real postMessage calls.
// Negative checks are ordered: a control message sent after the forbidden one must arrive first.
import dns from "node:dns";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intersectSandboxTokens } from "../frame/sandbox-tokens";
import type { ProxyParams } from "../params/proxy-params";
import { signProxyUrl } from "../params/signed-proxy-url";
import { handleSandboxRequest } from "../server/sandbox-request";
import { proxyScript } from "./proxy-script";
import {
  sandboxProxyReadyMethod,
  sandboxResourceReadyMethod,
  sandboxViewHtmlMethod,
  sandboxViewReadyMethod,
} from "./sandbox-methods";

const hostOrigin = window.location.origin;
const waitLimitMs = 5_000;
const signingKey = "a signing key of at least thirty-two bytes";
let sandboxServer: Server;
let foreignServer: Server;
let proxyOrigin = "";
let viewOrigin = "";
let foreignOrigin = "";
const originalLookup = dns.lookup;

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

/** A postMessage call the proxy made: what, for which origin, with what transferred. */
interface PostedMessage {
  message: unknown;
  targetOrigin: string;
  transfer: unknown[];
}

/**
 * Records every postMessage call made on `target` until stopped (synchronously: the proxy's
 * handler runs inside `deliver`, so what it posted is known as soon as `deliver` returns).
 */
function recordTargetOrigins(target: Window): {
  origins: string[];
  calls: PostedMessage[];
  stop: () => void;
} {
  const calls: PostedMessage[] = [];
  const original = target.postMessage;
  target.postMessage = function (
    this: Window,
    message: unknown,
    targetOrigin: string,
    transfer?: unknown[],
  ) {
    calls.push({ message, targetOrigin, transfer: transfer ?? [] });
    return Reflect.apply(original, this, [message, targetOrigin]) as undefined;
  } as Window["postMessage"];
  return {
    get origins() {
      return calls.map((call) => call.targetOrigin);
    },
    calls,
    stop: () => void (target.postMessage = original),
  };
}

function method(name: string): (data: unknown) => boolean {
  return (data) =>
    typeof data === "object" && data !== null && (data as { method?: unknown }).method === name;
}

/** Delivers a message to the proxy as a browser would, with the given origin, source and ports. */
function deliver(
  proxy: Window,
  data: unknown,
  origin: string,
  source: Window | null,
  ports: unknown[] = [],
): void {
  // The event is made in the proxy's own realm, as the browser would. jsdom has no MessagePort,
  // and takes any object in `ports`; a Node MessagePort stands in for the card's.
  const realm = proxy as unknown as typeof globalThis;
  proxy.dispatchEvent(
    new realm.MessageEvent("message", { data, origin, source, ports: ports as MessagePort[] }),
  );
}

/** A stand-in for the card's port that the host page transfers with the view's html. */
function cardPort(): MessagePort {
  const channel = new MessageChannel();
  channel.port1.close();
  return channel.port2;
}

/** The host page sends `sandbox-resource-ready` with the card's port (or the given ports). */
function fromHost(
  proxy: Window,
  params: Record<string, unknown>,
  ports: unknown[] = [cardPort()],
): void {
  deliver(proxy, resourceReady(params), hostOrigin, hostWindow(proxy), ports);
}

/** Frames the proxy in this (host) page and waits for its ready notification. */
async function openProxy(
  query: ProxyParams = {},
): Promise<{ frame: HTMLIFrameElement; proxy: Window }> {
  const frame = document.createElement("iframe");
  const ready = nextMessage(window, method(sandboxProxyReadyMethod), "sandbox-proxy-ready");
  frame.src = await signProxyUrl(
    proxyOrigin,
    { host: hostOrigin, view: "notes", ...query },
    signingKey,
  );
  document.body.appendChild(frame);
  expect(await ready).toEqual({ jsonrpc: "2.0", method: sandboxProxyReadyMethod, params: {} });
  const proxy = frame.contentWindow;
  if (proxy === null) throw new Error("The proxy frame has no window.");
  return { frame, proxy };
}

function innerFrame(proxy: Window): HTMLIFrameElement | null {
  return proxy.document.querySelector('iframe[title="App view"]');
}

/** The view's signed URL, as the proxy page carries it. */
function viewUrlOf(proxy: Window): string {
  return proxy.document.querySelector('meta[name="mcp-view-url"]')?.getAttribute("content") ?? "";
}

/** The view's window, once its loader said it is ready and got its html (as a browser would). */
async function readyView(proxy: Window, origin = viewOrigin): Promise<Window> {
  const view = innerFrame(proxy)?.contentWindow;
  if (!view) throw new Error("no view frame");
  const html = nextMessage(view, method(sandboxViewHtmlMethod), "the view's html");
  deliver(proxy, { jsonrpc: "2.0", method: sandboxViewReadyMethod, params: {} }, origin, view);
  await html;
  return view;
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
  // As a browser does: every *.localhost name is this machine.
  dns.lookup = ((hostname: string, ...rest: unknown[]) =>
    (originalLookup as (...args: unknown[]) => void)(
      hostname.endsWith(".localhost") ? "127.0.0.1" : hostname,
      ...rest,
    )) as typeof dns.lookup;
  let port = 0;
  ({ server: sandboxServer } = await listen((request, response) => {
    void handleSandboxRequest(new URL(request.url ?? "/", `http://${request.headers.host ?? ""}`), {
      hostOrigins: [hostOrigin],
      originTemplate: `http://{source}.localhost:${port}`,
      signingKey,
    }).then((answer) => {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
  }));
  port = Number(new URL((await addressOf(sandboxServer)) ?? "http://x").port);
  proxyOrigin = `http://proxy.localhost:${port}`;
  viewOrigin = `http://notes.localhost:${port}`;
  const signedProxyUrl = await signProxyUrl(
    proxyOrigin,
    { host: hostOrigin, view: "notes" },
    signingKey,
  );
  ({ server: foreignServer, origin: foreignOrigin } = await listen((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end(`<!doctype html><iframe src="${signedProxyUrl.replace(/&/g, "&amp;")}"></iframe>`);
  }));
});

afterAll(async () => {
  document.body.replaceChildren();
  dns.lookup = originalLookup;
  await Promise.all([close(sandboxServer), close(foreignServer)]);
});

async function addressOf(server: Server): Promise<string | undefined> {
  const address = server.address();
  return address === null || typeof address === "string"
    ? undefined
    : `http://127.0.0.1:${address.port}`;
}

describe("proxy script under the host page", () => {
  it("creates the view's frame on its own origin at once with the default tokens, and again with the tokens sandbox-resource-ready asks for, once", async () => {
    const { proxy } = await openProxy({ permissions: { camera: {}, clipboardWrite: {} } });
    const viewUrl = viewUrlOf(proxy);
    expect(new URL(viewUrl).origin).toBe(viewOrigin);
    // Loading already, before the host sent anything: the loader runs nothing without the html.
    const early = innerFrame(proxy);
    expect(early?.getAttribute("sandbox")).toBe(intersectSandboxTokens(undefined));
    expect(early?.getAttribute("allow")).toBe("camera; clipboard-write");
    expect(early?.getAttribute("src")).toBe(viewUrl);

    fromHost(proxy, {
      html: "<p>view</p>",
      sandbox: "allow-scripts allow-top-navigation allow-popups",
    });
    const inner = innerFrame(proxy);
    // Other tokens than the early frame's: a new frame, the early one gone.
    expect(inner).not.toBe(early);
    expect(early?.isConnected).toBe(false);
    expect(proxy.document.querySelectorAll("iframe")).toHaveLength(1);
    expect(inner?.getAttribute("sandbox")).toBe(
      "allow-scripts allow-popups allow-popups-to-escape-sandbox",
    );
    expect(inner?.getAttribute("allow")).toBe("camera; clipboard-write");
    expect(inner?.getAttribute("src")).toBe(viewUrl);
    expect(inner?.hasAttribute("srcdoc")).toBe(false);

    fromHost(proxy, { html: "<p>second</p>", sandbox: "allow-scripts allow-same-origin" });
    expect(proxy.document.querySelectorAll("iframe")).toHaveLength(1);
    expect(innerFrame(proxy)?.getAttribute("sandbox")).toBe(
      "allow-scripts allow-popups allow-popups-to-escape-sandbox",
    );
  });

  it("keeps the early frame when the host asks for no tokens, and ignores a resource without html", async () => {
    const { proxy } = await openProxy();
    const early = innerFrame(proxy);
    const view = early?.contentWindow;
    if (!view) throw new Error("no view frame");
    const received = record(view);
    fromHost(proxy, { html: 42 });
    const html = nextMessage(view, method(sandboxViewHtmlMethod), "the view's html");
    fromHost(proxy, { html: "<p>ok</p>" });
    expect(innerFrame(proxy)).toBe(early);
    expect(early?.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin allow-forms");
    expect(early?.hasAttribute("allow")).toBe(false);
    deliver(
      proxy,
      { jsonrpc: "2.0", method: sandboxViewReadyMethod, params: {} },
      viewOrigin,
      view,
    );
    expect(await html).toEqual({
      jsonrpc: "2.0",
      method: sandboxViewHtmlMethod,
      params: { html: "<p>ok</p>" },
    });
    received.stop();
    expect(received.messages.filter(method(sandboxViewHtmlMethod))).toHaveLength(1);
  });

  it("sends the html as soon as the host sends it when the view asked first", async () => {
    const { proxy } = await openProxy();
    const view = innerFrame(proxy)?.contentWindow;
    if (!view) throw new Error("no view frame");
    const received = record(view);
    const html = nextMessage(view, method(sandboxViewHtmlMethod), "the view's html");
    deliver(
      proxy,
      { jsonrpc: "2.0", method: sandboxViewReadyMethod, params: {} },
      viewOrigin,
      view,
    );
    fromHost(proxy, { html: "<p>late</p>" });
    expect(await html).toEqual({
      jsonrpc: "2.0",
      method: sandboxViewHtmlMethod,
      params: { html: "<p>late</p>" },
    });
    received.stop();
    expect(received.messages.filter(method(sandboxViewHtmlMethod))).toHaveLength(1);
  });

  it("grants the same tokens as intersectSandboxTokens", async () => {
    for (const requested of [
      "ALLOW-SCRIPTS\tallow-forms allow-forms",
      "allow-popups-to-escape-sandbox allow-scripts",
      "",
      "allow-modals allow-downloads allow-top-navigation allow-same-origin allow-popups",
    ]) {
      const { proxy } = await openProxy();
      fromHost(proxy, { html: "<p>view</p>", sandbox: requested });
      expect(innerFrame(proxy)?.getAttribute("sandbox"), requested).toBe(
        intersectSandboxTokens(requested),
      );
    }
  });

  it("ignores sandbox-resource-ready from a wrong origin, another window, the view, or without the port", async () => {
    const { proxy } = await openProxy();
    const port = cardPort();
    deliver(proxy, resourceReady({ html: "<p>a</p>" }), "http://evil.example", hostWindow(proxy), [
      port,
    ]);
    deliver(proxy, resourceReady({ html: "<p>b</p>" }), hostOrigin, proxy, [port]);
    deliver(proxy, resourceReady({ html: "<p>c</p>", sandbox: "allow-scripts" }), hostOrigin, null);
    fromHost(proxy, { html: "<p>no port</p>", sandbox: "allow-scripts" }, []);
    fromHost(proxy, { html: "<p>two ports</p>", sandbox: "allow-scripts" }, [port, cardPort()]);
    expect(innerFrame(proxy)?.getAttribute("sandbox")).toBe(intersectSandboxTokens(undefined));

    fromHost(proxy, { html: "<p>view</p>" }, [port]);
    const early = innerFrame(proxy)?.contentWindow;
    if (!early) throw new Error("no view frame");
    const posted = recordTargetOrigins(early);
    const view = await readyView(proxy);
    // The html and port of the one valid message, not of a forged one.
    fromHost(proxy, { html: "<p>forged</p>" });
    deliver(proxy, resourceReady({ html: "<p>forged</p>" }), viewOrigin, view, [cardPort()]);
    posted.stop();
    expect(proxy.document.querySelectorAll('iframe[title="App view"]')).toHaveLength(1);
    expect(posted.calls).toHaveLength(1);
    expect(posted.calls[0]?.message).toMatchObject({ params: { html: "<p>view</p>" } });
    expect(posted.calls[0]?.transfer).toEqual([port]);
    expect(posted.calls[0]?.transfer[0]).toBe(port);
  });

  it("sends the view its html and the card's port once, when its loader on the view origin asks for it", async () => {
    const { proxy } = await openProxy();
    const port = cardPort();
    fromHost(proxy, { html: "<p>view</p>" }, [port]);
    const view = innerFrame(proxy)?.contentWindow;
    const stranger = document.createElement("iframe");
    proxy.document.body.appendChild(stranger);
    if (!view || !stranger.contentWindow) throw new Error("no frames");
    const posted = recordTargetOrigins(view);
    const ready = { jsonrpc: "2.0", method: sandboxViewReadyMethod, params: {} };
    // Not from another origin, not from a stranger frame: no html yet.
    deliver(proxy, ready, proxyOrigin, view);
    deliver(proxy, ready, hostOrigin, view);
    deliver(proxy, ready, viewOrigin, stranger.contentWindow);
    expect(posted.calls).toEqual([]);
    const html = nextMessage(view, method(sandboxViewHtmlMethod), "the view's html");
    deliver(proxy, ready, viewOrigin, view);
    expect(await html).toEqual({
      jsonrpc: "2.0",
      method: sandboxViewHtmlMethod,
      params: { html: "<p>view</p>" },
    });
    // Asking again (a reloaded view) gets nothing.
    deliver(proxy, ready, viewOrigin, view);
    posted.stop();
    expect(posted.calls).toHaveLength(1);
    expect(posted.calls[0]?.targetOrigin).toBe(viewOrigin);
    expect(posted.calls[0]?.transfer[0]).toBe(port);
  });

  it("relays nothing else: the host and the view speak on the card's port", async () => {
    const { proxy } = await openProxy();
    const stranger = document.createElement("iframe");
    proxy.document.body.appendChild(stranger);
    fromHost(proxy, { html: "<p>view</p>" });
    const view = await readyView(proxy);
    if (!stranger.contentWindow) throw new Error("no frames");
    const toView = recordTargetOrigins(view);
    const toHost = recordTargetOrigins(hostWindow(proxy));

    deliver(
      proxy,
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } },
      hostOrigin,
      hostWindow(proxy),
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "ui/notifications/sandbox-something", params: {} },
      hostOrigin,
      hostWindow(proxy),
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} },
      viewOrigin,
      view,
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: sandboxProxyReadyMethod, params: {} },
      viewOrigin,
      view,
    );
    deliver(
      proxy,
      { jsonrpc: "2.0", method: "from-a-stranger" },
      viewOrigin,
      stranger.contentWindow,
    );
    toView.stop();
    toHost.stop();
    expect(toView.calls).toEqual([]);
    expect(toHost.calls).toEqual([]);
  });

  it("expects an opaque origin from a view without allow-same-origin", async () => {
    const { proxy } = await openProxy();
    fromHost(proxy, { html: "<p>view</p>", sandbox: "allow-scripts" });
    const view = innerFrame(proxy)?.contentWindow;
    if (!view) throw new Error("no view frame");
    const posted = recordTargetOrigins(view);
    const ready = { jsonrpc: "2.0", method: sandboxViewReadyMethod, params: {} };
    // The frame is opaque: a loader claiming the view's origin is not it.
    deliver(proxy, ready, viewOrigin, view);
    expect(posted.calls).toEqual([]);
    deliver(proxy, ready, "null", view);
    posted.stop();
    // An opaque origin cannot be named, so towards this frame the proxy posts with "*".
    expect(posted.origins).toEqual(["*"]);
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
    const viewMeta = document.createElement("meta");
    viewMeta.name = "mcp-view-url";
    viewMeta.content = "http://notes.localhost:1/view";
    document.head.appendChild(viewMeta);
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
    expect(document.querySelector('iframe[title="App view"]')).toBeNull();
    meta.remove();
    viewMeta.remove();
    Reflect.deleteProperty(document, "referrer");
  });
});
