// A Node socket.io client that speaks the host's wire contract, as a browser tab would: one per
// simulated person in the many-sessions benchmark. Every wait is bounded.
import { connectSocketTestClient, type SocketTestClient } from "@mcp-chat-host/host/testing";

/** A connected client: the shared client of `@mcp-chat-host/host/testing`, keeping no events. */
export type BenchClient = SocketTestClient;

/** Options of {@link connectBenchClient}. */
export interface BenchClientOptions {
  /** Handshake headers (the bench server's auth function reads the user from one). */
  headers: Record<string, string>;
  /** The tab's id: each tab id of a signed-in person is its own session. */
  tabId: string;
  /** Give up connecting after this long, in ms. */
  timeoutMs: number;
}

/**
 * Connects a client over WebSocket with the host's own Origin, as the web app does. It keeps no
 * server events (thousands of quiet sessions would only fill memory), so `next` waits for events
 * still to come: call it before sending what causes the event.
 *
 * @throws {Error} on `connect_error` (refused handshake, unreachable host) or timeout.
 */
export function connectBenchClient(
  origin: string,
  options: BenchClientOptions,
): Promise<BenchClient> {
  return connectSocketTestClient(origin, {
    tabId: options.tabId,
    headers: options.headers,
    connectTimeoutMs: options.timeoutMs,
    record: false,
  });
}
