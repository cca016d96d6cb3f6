// The bridge's channel to a card's sandbox proxy. The SDK's PostMessageTransport checks only the
// sending window and posts to any origin ("*"); this one also requires the sandbox's exact origin
// both ways, so if the proxy's frame were navigated elsewhere (a view on the sandbox origin can
// reach its parent document) nothing the host sends leaves for another origin, and nothing from
// another origin is taken for the view.
import { errorMessage } from "@mcp-chat-host/protocol";
import {
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";

/**
 * A `Transport` over `postMessage` to one frame's window on one origin.
 */
export class SandboxTransport implements Transport {
  readonly #target: Window;
  readonly #origin: string;
  readonly #host: Pick<Window, "addEventListener" | "removeEventListener">;
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

  readonly #listener = (event: MessageEvent): void => {
    if (event.source !== this.#target || event.origin !== this.#origin) return;
    const data: unknown = event.data;
    // Other scripts may post non-JSON-RPC data (e.g. browser extensions); only JSON-RPC counts.
    if (
      data === null ||
      typeof data !== "object" ||
      (data as { jsonrpc?: unknown }).jsonrpc !== "2.0"
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
  };

  /** Starts listening. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#host.addEventListener("message", this.#listener as EventListener);
  }

  /** Posts a message to the proxy, for the sandbox origin only. */
  async send(message: JSONRPCMessage): Promise<void> {
    this.#target.postMessage(message, this.#origin);
  }

  /** Stops listening; `onclose` runs. */
  async close(): Promise<void> {
    this.#host.removeEventListener("message", this.#listener as EventListener);
    this.#started = false;
    this.onclose?.();
  }
}
