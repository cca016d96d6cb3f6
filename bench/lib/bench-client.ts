// A Node socket.io client that speaks the host's wire contract, as a browser tab would: one per
// simulated person in the many-sessions benchmark. Every wait is bounded.
import {
  ACK_TIMEOUT_MS,
  type Ack,
  type ClientEventName,
  type ClientEventValues,
  type ClientPayload,
  type ServerEventName,
  type ServerEvents,
} from "@mcp-chat-host/protocol";
import { io as connectSocket, type Socket } from "socket.io-client";

/** A connected client. */
export interface BenchClient {
  socket: Socket;
  /**
   * Sends an event and resolves with its acknowledgement.
   *
   * @throws {Error} when no acknowledgement comes within `timeoutMs` (default 30 s).
   */
  request<E extends ClientEventName>(
    event: E,
    payload: ClientPayload<E>,
    timeoutMs?: number,
  ): Promise<Ack<ClientEventValues[E]>>;
  /**
   * Like {@link BenchClient.request}, but resolves with the value.
   *
   * @throws {Error} with the wire error's code and message when the acknowledgement is an error.
   */
  value<E extends ClientEventName>(
    event: E,
    payload: ClientPayload<E>,
    timeoutMs?: number,
  ): Promise<ClientEventValues[E]>;
  /**
   * Waits for the next server event of that name that matches. Call it before sending what
   * causes the event, so it can't be missed.
   *
   * @throws {Error} when none comes within `timeoutMs`.
   */
  waitFor<E extends ServerEventName>(
    event: E,
    match: (payload: ServerEvents[E]) => boolean,
    timeoutMs: number,
  ): Promise<ServerEvents[E]>;
  close(): void;
}

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
 * Connects a client over WebSocket with the host's own Origin, as the web app does.
 *
 * @throws {Error} on `connect_error` (refused handshake, unreachable host) or timeout.
 */
export function connectBenchClient(
  origin: string,
  options: BenchClientOptions,
): Promise<BenchClient> {
  const socket = connectSocket(origin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: { ...options.headers, origin },
    auth: { tabId: options.tabId },
    timeout: options.timeoutMs,
  });
  const client: BenchClient = {
    socket,
    request: (event, payload, timeoutMs = ACK_TIMEOUT_MS) =>
      socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<
        Ack<ClientEventValues[typeof event]>
      >,
    async value(event, payload, timeoutMs) {
      const ack = await client.request(event, payload, timeoutMs);
      if (!ack.ok) throw new Error(`${event}: ${ack.error.code}: ${ack.error.message}`);
      return ack.value;
    },
    waitFor(event, match, timeoutMs) {
      // Server events are not typed on the socket; the protocol package types their payloads.
      const name: string = event;
      return new Promise((resolve, reject) => {
        const listener = (payload: ServerEvents[typeof event]) => {
          if (!match(payload)) return;
          clearTimeout(timer);
          socket.off(name, listener);
          resolve(payload);
        };
        const timer = setTimeout(() => {
          socket.off(name, listener);
          reject(new Error(`No "${event}" event within ${timeoutMs} ms.`));
        }, timeoutMs);
        socket.on(name, listener);
      });
    },
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(client));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}
