// A Node socket.io client that speaks the wire contract as the host page does, for tests and
// benchmarks: WebSocket only, the host's Origin, the session cookie and its binding. Every wait
// is bounded.
import {
  ACK_TIMEOUT_MS,
  CARD_CALL_ACK_TIMEOUT_MS,
  type Ack,
  type ClientEventName,
  type ClientEventValues,
  type ClientPayload,
  type ServerEventName,
  type ServerEvents,
  type WireError,
} from "@mcp-chat-host/protocol";
import { io as connectSocket, type Socket } from "socket.io-client";

/** Options of {@link connectSocketTestClient}. */
export interface SocketTestClientOptions {
  /** The tab's id: each tab id of a signed-in person is its own session. */
  tabId: string;
  /** The session cookie (`name=value`), when the host's auth mode uses one. */
  cookie?: string | undefined;
  /** The session binding the sign-in page gave with the cookie; none when absent. */
  binding?: string | undefined;
  /** The page's origin, sent as `Origin` (default: the host's own origin, as the web app does). */
  origin?: string | undefined;
  /** More handshake headers (an auth function may read the user from one). */
  headers?: Record<string, string> | undefined;
  /** Give up connecting after this long, in ms (default 10 000). */
  connectTimeoutMs?: number | undefined;
  /**
   * Keep every server event in `received`, for {@link SocketTestClient.next} to find events that
   * came before it was called (default true). Off for long runs with many clients.
   */
  record?: boolean | undefined;
}

/** A request the host answered with an error; `wire` is that error. */
export class SocketRequestError extends Error {
  override readonly name = "SocketRequestError";

  /**
   * @param event - the event that was refused.
   * @param wire - the host's answer.
   */
  constructor(
    readonly event: ClientEventName,
    readonly wire: WireError,
  ) {
    super(`${event} was refused (${wire.code}): ${wire.message}`);
  }
}

/** A connected client. */
export interface SocketTestClient {
  socket: Socket;
  /** Every server event received and not yet taken by {@link next}, in order (when recording). */
  received: { event: string; payload: unknown }[];
  /**
   * Sends an event and resolves with its acknowledgement.
   *
   * @param timeoutMs - default the web app's: `CARD_CALL_ACK_TIMEOUT_MS` for `card:call-tool`,
   *   else `ACK_TIMEOUT_MS`.
   * @throws {Error} when no acknowledgement comes in time.
   */
  request<E extends ClientEventName>(
    event: E,
    payload: ClientPayload<E>,
    timeoutMs?: number,
  ): Promise<Ack<ClientEventValues[E]>>;
  /**
   * Like {@link request}, but resolves with the value.
   *
   * @throws {SocketRequestError} when the acknowledgement is an error.
   */
  value<E extends ClientEventName>(
    event: E,
    payload: ClientPayload<E>,
    timeoutMs?: number,
  ): Promise<ClientEventValues[E]>;
  /**
   * Resolves with the first server event of that name that matches, taking it out of
   * `received`: one received already (when recording), else the next one.
   *
   * @throws {Error} when none comes within `timeoutMs` (default 15 000).
   */
  next<E extends ServerEventName>(
    event: E,
    match?: (payload: ServerEvents[E]) => boolean,
    timeoutMs?: number,
  ): Promise<ServerEvents[E]>;
  close(): void;
}

interface Waiter {
  event: string;
  match: (payload: unknown) => boolean;
  resolve: (payload: unknown) => void;
}

/**
 * Connects a client over WebSocket, as the web app does.
 *
 * @param hostOrigin - the host's URL (`http://127.0.0.1:<port>`).
 * @param options - the tab, the credentials and what to keep.
 * @returns the connected client.
 * @throws {Error} on `connect_error` (a refused handshake, an unreachable host) or timeout.
 */
export function connectSocketTestClient(
  hostOrigin: string,
  options: SocketTestClientOptions,
): Promise<SocketTestClient> {
  const socket = connectSocket(hostOrigin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: {
      ...options.headers,
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      origin: options.origin ?? hostOrigin,
    },
    auth: {
      tabId: options.tabId,
      ...(options.binding === undefined ? {} : { binding: options.binding }),
    },
    timeout: options.connectTimeoutMs ?? 10_000,
  });
  const record = options.record ?? true;
  const received: SocketTestClient["received"] = [];
  const waiters: Waiter[] = [];
  socket.onAny((event: string, payload: unknown) => {
    // Every waiter the event matches takes it; one that nobody waited for is kept.
    const taking = waiters.filter((waiter) => waiter.event === event && waiter.match(payload));
    for (const waiter of taking) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(payload);
    }
    if (taking.length === 0 && record) received.push({ event, payload });
  });
  const client: SocketTestClient = {
    socket,
    received,
    request(event, payload, timeoutMs) {
      const wait =
        timeoutMs ?? (event === "card:call-tool" ? CARD_CALL_ACK_TIMEOUT_MS : ACK_TIMEOUT_MS);
      return socket.timeout(wait).emitWithAck(event, payload) as Promise<
        Ack<ClientEventValues[typeof event]>
      >;
    },
    async value(event, payload, timeoutMs) {
      const ack = await client.request(event, payload, timeoutMs);
      if (!ack.ok) throw new SocketRequestError(event, ack.error);
      return ack.value;
    },
    next(event, match = () => true, timeoutMs = 15_000) {
      const matches = match as (payload: unknown) => boolean;
      const seen = received.findIndex((entry) => entry.event === event && matches(entry.payload));
      if (seen !== -1) {
        const [entry] = received.splice(seen, 1);
        return Promise.resolve(entry?.payload as ServerEvents[typeof event]);
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          event,
          match: matches,
          resolve: (payload) => {
            clearTimeout(timer);
            resolve(payload as ServerEvents[typeof event]);
          },
        };
        // Bounds the wait; the event itself ends it.
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`No "${event}" event within ${timeoutMs} ms.`));
        }, timeoutMs);
        waiters.push(waiter);
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
