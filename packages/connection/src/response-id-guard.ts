// Sits between a transport and the SDK Client and checks that every response answers a request
// that is in flight. The SDK alone would only log a stray response; a server that sends one has
// lost track of which reply belongs to which request, so a later reply could answer the wrong
// call. The guard reports the stray instead of passing it on.
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";

// Ids of requests we cancelled, whose answers may still arrive (the spec allows that race). The
// SDK's ids only grow, so a bounded memory of recent ones is enough.
const cancelledMemory = 256;

/**
 * A {@link Transport} wrapper: outgoing requests add their id to the set in flight, a response
 * removes it. A response whose id is not in flight (never sent, already answered, null or
 * missing) is not delivered: it goes to `onUnexpectedResponse` (once, after the answers
 * delivered before it have settled), and every later message is dropped. A late answer to a
 * request this side cancelled (`notifications/cancelled`) is dropped quietly.
 */
export class ResponseIdGuard implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  private readonly inner: Transport;
  private readonly inFlight = new Set<string>();
  private readonly cancelled = new Set<string>();
  private tripped = false;
  private closed = false;

  /**
   * @param inner - the real transport.
   * @param hooks - `onUnexpectedResponse` runs once, for the first stray response; later
   *   messages are dropped. `onTransportClose` runs when the inner transport closes, before the
   *   SDK hears of it. `onProgress` sees each `notifications/progress` in message order and
   *   returns true to consume it (the SDK then never sees it).
   */
  constructor(
    inner: Transport,
    private readonly hooks: {
      onUnexpectedResponse: (message: JSONRPCMessage) => void;
      onTransportClose?: () => void;
      onProgress?: (params: Record<string, unknown> | undefined) => boolean;
    },
  ) {
    this.inner = inner;
  }

  /** Whether the inner transport has closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** How many requests are waiting for their response. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** The inner transport's session id (Streamable HTTP). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Whether the inner transport opens one HTTP request per JSON-RPC request. */
  get hasPerRequestStream(): boolean {
    return this.inner.hasPerRequestStream === true;
  }

  /** Passes the negotiated protocol version on (the HTTP transports put it in a header). */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** Passes the supported protocol versions on. */
  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  /** Installs the checks on the inner transport, then starts it. */
  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.closed = true;
      this.hooks.onTransportClose?.();
      this.onclose?.();
    };
    return this.inner.start();
  }

  /** Records outgoing request ids (and cancellations), then sends. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ("method" in message && "id" in message && message.id !== undefined) {
      this.inFlight.add(key(message.id));
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined && this.inFlight.delete(key(requestId))) {
        this.rememberCancelled(key(requestId));
      }
    }
    return this.inner.send(message, options);
  }

  /** Closes the inner transport. */
  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.tripped) return;
    // Anything without a method is a reply, including one whose id is null or missing (a
    // parse-error reply): that answers no request in flight either.
    const isResponse = !("method" in message);
    if (isResponse) {
      const id = this.matchingKey((message as { id?: RequestId | null }).id);
      if (id !== undefined && this.inFlight.delete(id)) {
        // In flight: delivered below.
      } else if (id !== undefined && this.cancelled.delete(id)) {
        return;
      } else {
        // Everything after a stray is dropped. The report waits until the work already queued
        // (the SDK settles a delivered answer in microtasks) is done, so an answer that arrived
        // before the stray still reaches its caller.
        this.tripped = true;
        setImmediate(() => this.hooks.onUnexpectedResponse(message));
        return;
      }
    }
    if ("method" in message && message.method === "notifications/progress" && !("id" in message)) {
      if (this.hooks.onProgress?.(message.params as Record<string, unknown> | undefined) === true)
        return;
    }
    this.onmessage?.(message, extra);
  }

  // A string id matches a string request id exactly; it matches a numeric request id when it
  // reads as that number (ids are compared numerically when the request's id is a number).
  private matchingKey(id: RequestId | null | undefined): string | undefined {
    if (id === undefined || id === null) return undefined;
    if (typeof id === "number") return key(id);
    const asString = key(id);
    if (this.inFlight.has(asString) || this.cancelled.has(asString)) return asString;
    const asNumber = Number(id);
    return id.trim() !== "" && Number.isFinite(asNumber) ? key(asNumber) : asString;
  }

  private rememberCancelled(id: string): void {
    this.cancelled.add(id);
    if (this.cancelled.size > cancelledMemory) {
      const oldest = this.cancelled.values().next().value;
      if (oldest !== undefined) this.cancelled.delete(oldest);
    }
  }
}

// JSON-RPC ids may be numbers or strings; 1 and "1" are different ids.
function key(id: RequestId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
