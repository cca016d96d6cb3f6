// Stands in for the sandbox proxy and the view's frame in the cards' tests (jsdom cannot run the
// proxy page): the host's bridge talks to "the proxy" over the SDK's in-memory transport, which
// consumes `ui/notifications/sandbox-*` and relays everything else to a real ext-apps `App` once
// "the view is loaded", as the real proxy does. Only tests import this file.
import type { App } from "@modelcontextprotocol/ext-apps";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";

/** The harness: the host's transport, what crossed it, and the proxy's and view's moves. */
export interface ViewHarness {
  /** Give this to the card as its bridge transport. */
  hostSide: InMemoryTransport;
  /** Every message the host sent towards the proxy, in order. */
  fromHost: JSONRPCMessage[];
  /** Every message the proxy relayed to the view, in order. */
  toView: JSONRPCMessage[];
  /** Every message the view sent to the host, in order. */
  fromView: JSONRPCMessage[];
  /** The proxy says `sandbox-proxy-ready`. */
  proxyReady(): Promise<void>;
  /** Resolves with the params of the host's `sandbox-resource-ready`. */
  resourceReady: Promise<Record<string, unknown>>;
  /** The view's page loads and its App connects (ui/initialize, then initialized). */
  loadView(app: App): Promise<void>;
  /** From now on the proxy drops what the host sends (a stuck view). */
  silence(): void;
  /** Resolves when the host closed its side (the bridge was closed). */
  hostClosed: Promise<void>;
}

function methodOf(message: JSONRPCMessage): string | undefined {
  return "method" in message ? message.method : undefined;
}

/** Creates a {@link ViewHarness}. */
export async function createViewHarness(): Promise<ViewHarness> {
  const [hostSide, proxyOuter] = InMemoryTransport.createLinkedPair();
  const [proxyInner, viewSide] = InMemoryTransport.createLinkedPair();
  const fromHost: JSONRPCMessage[] = [];
  const toView: JSONRPCMessage[] = [];
  const fromView: JSONRPCMessage[] = [];
  let viewLoaded = false;
  let silenced = false;
  let resolveResource: (params: Record<string, unknown>) => void = () => undefined;
  const resourceReady = new Promise<Record<string, unknown>>(
    (resolve) => (resolveResource = resolve),
  );

  proxyOuter.onmessage = (message) => {
    fromHost.push(message);
    const method = methodOf(message);
    if (method?.startsWith("ui/notifications/sandbox-")) {
      if (method === "ui/notifications/sandbox-resource-ready" && "params" in message) {
        resolveResource((message.params ?? {}) as Record<string, unknown>);
      }
      return;
    }
    if (!viewLoaded || silenced) return;
    toView.push(message);
    proxyInner.send(message).catch(() => undefined);
  };
  proxyInner.onmessage = (message) => {
    fromView.push(message);
    // After the host closed, the view's messages go nowhere, as with a removed frame.
    proxyOuter.send(message).catch(() => undefined);
  };
  let resolveClosed: () => void = () => undefined;
  const hostClosed = new Promise<void>((resolve) => (resolveClosed = resolve));
  proxyOuter.onclose = () => resolveClosed();
  await proxyOuter.start();
  await proxyInner.start();

  return {
    hostSide,
    fromHost,
    toView,
    fromView,
    proxyReady: () =>
      proxyOuter.send({
        jsonrpc: "2.0",
        method: "ui/notifications/sandbox-proxy-ready",
        params: {},
      }),
    resourceReady,
    async loadView(app) {
      viewLoaded = true;
      await app.connect(viewSide);
    },
    silence() {
      silenced = true;
    },
    hostClosed,
  };
}

/** Methods of the notifications and requests among `messages`, in order. */
export function methodsOf(messages: readonly JSONRPCMessage[]): string[] {
  return messages.map(methodOf).filter((method): method is string => method !== undefined);
}

/**
 * Resolves when `element` has the attribute (at once when it already has it).
 *
 * @returns the attribute's value.
 */
export function attributeSet(element: Element, name: string): Promise<string> {
  const existing = element.getAttribute(name);
  if (existing !== null) return Promise.resolve(existing);
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const value = element.getAttribute(name);
      if (value === null) return;
      observer.disconnect();
      resolve(value);
    });
    observer.observe(element, { attributes: true, attributeFilter: [name] });
  });
}
