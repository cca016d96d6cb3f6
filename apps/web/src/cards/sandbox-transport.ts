// The bridge's channel to a card: two lanes.
// - The proxy's window, on the sandbox origin only, for the proxy's own `ui/notifications/sandbox-*`
//   messages (it says `sandbox-proxy-ready`; it is sent `sandbox-resource-ready`). The SDK's
//   PostMessageTransport checks only the sending window and posts to any origin ("*"); this lane
//   also requires the sandbox's exact origin both ways.
// - A MessageChannel of this card's own, for everything the view and the host say to each other.
//   Its second port travels with `sandbox-resource-ready` to the proxy, which hands it to the view's
//   loader with the view's HTML; nothing else holds it. The view's messages then cross one frame
//   boundary instead of two (no relay through the proxy), and only the holder of this card's port
//   is heard as the view, whatever window posts to this page.
import { errorMessage } from "@mcp-chat-host/protocol";
import { sandboxMethodPrefix, sandboxResourceReadyMethod } from "@mcp-chat-host/sandbox";
import {
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";

function methodOf(data: unknown): string | undefined {
  const method = (data as { method?: unknown } | null)?.method;
  return typeof method === "string" ? method : undefined;
}

function isSandboxMessage(data: unknown): boolean {
  if (Array.isArray(data)) return data.some(isSandboxMessage);
  return methodOf(data)?.startsWith(sandboxMethodPrefix) === true;
}

/**
 * A `Transport` to one card: its proxy's window on one origin, and a port of its own to its view.
 */
export class SandboxTransport implements Transport {
  readonly #target: Window;
  readonly #origin: string;
  readonly #host: Pick<Window, "addEventListener" | "removeEventListener">;
  readonly #channel = new MessageChannel();
  #portGiven = false;
  #started = false;

  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /**
   * @param target - the proxy iframe's `contentWindow`: the only window heard and written to.
   * @param origin - the sandbox origin: the only origin heard and the origin posted to.
   * @param host - the window whose `message` events are read; default the page's.
   */
  constructor(
    target: Window,
    origin: string,
    host: Pick<Window, "addEventListener" | "removeEventListener"> = window,
  ) {
    this.#target = target;
    this.#origin = origin;
    this.#host = host;
  }

  #deliver(data: unknown): void {
    // Other scripts may post non-JSON-RPC data (e.g. browser extensions); only JSON-RPC counts.
    if (
      data === null ||
      typeof data !== "object" ||
      (!Array.isArray(data) && (data as { jsonrpc?: unknown }).jsonrpc !== "2.0")
    ) {
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(data);
    } catch (error) {
      this.onerror?.(
        new Error(`The app sent a malformed JSON-RPC message: ${errorMessage(error)}`),
      );
      return;
    }
    this.onmessage?.(message);
  }

  /** The proxy's lane: only its own sandbox messages, from its window on its origin. */
  readonly #windowListener = (event: MessageEvent): void => {
    if (event.source !== this.#target || event.origin !== this.#origin) return;
    if (!isSandboxMessage(event.data) || Array.isArray(event.data)) return;
    this.#deliver(event.data);
  };

  /** The view's lane: anything but the proxy's messages, which a view may not speak for. */
  readonly #portListener = (event: MessageEvent): void => {
    if (isSandboxMessage(event.data)) return;
    this.#deliver(event.data);
  };

  /** Starts listening on both lanes. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#host.addEventListener("message", this.#windowListener as EventListener);
    this.#channel.port1.onmessage = this.#portListener;
  }

  /**
   * Sends a message: the proxy's own messages to its window, for the sandbox origin only (the
   * first `sandbox-resource-ready` carries the view's port with it); the rest on the view's port,
   * where they wait until the view's loader holds it.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    const method = methodOf(message);
    if (method === undefined || !method.startsWith(sandboxMethodPrefix)) {
      this.#channel.port1.postMessage(message);
      return;
    }
    if (method === sandboxResourceReadyMethod && !this.#portGiven) {
      this.#portGiven = true;
      this.#target.postMessage(message, this.#origin, [this.#channel.port2]);
      return;
    }
    this.#target.postMessage(message, this.#origin);
  }

  /** Stops listening and closes the view's port; `onclose` runs. */
  async close(): Promise<void> {
    this.#host.removeEventListener("message", this.#windowListener as EventListener);
    this.#channel.port1.onmessage = null;
    this.#channel.port1.close();
    this.#started = false;
    this.onclose?.();
  }
}
