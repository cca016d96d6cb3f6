import type {
  Ack,
  ClientEventName,
  ClientEventValues,
  ClientPayload,
  ServerEventName,
  ServerEvents,
} from "@mcp-chat-host/protocol";

/** The connection's own events, as socket.io's client reports them. */
export interface ConnectionListeners {
  connect: () => void;
  disconnect: (reason: string) => void;
  /** A refused handshake carries the server's {@link WireError} in `error.data`. */
  connect_error: (error: Error & { data?: unknown }) => void;
}

/** Every event a {@link HostSocket} can listen to, with its listener's shape. */
export type HostSocketListeners = ConnectionListeners & {
  [E in ServerEventName]: (payload: ServerEvents[E]) => void;
};

/** What `socket.timeout(ms)` returns: an emitter whose acknowledgement fails after `ms`. */
export interface TimedEmitter {
  /**
   * Sends `event` and waits for its acknowledgement.
   *
   * @returns the server's {@link Ack}.
   * @throws an Error when no acknowledgement came in time.
   */
  emitWithAck<E extends ClientEventName>(
    event: E,
    payload: ClientPayload<E>,
  ): Promise<Ack<ClientEventValues[E]>>;
}

/**
 * The part of socket.io's client socket the web app uses, typed with the wire contract. The real
 * socket is adapted to it in {@link createHostSocket}; tests pass a fake with the same shape.
 */
export interface HostSocket {
  /** True while the socket is connected and authenticated. */
  readonly connected: boolean;
  /** Adds a listener. */
  on<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]): void;
  /** Removes a listener added with {@link HostSocket.on}. */
  off<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]): void;
  /** An emitter whose acknowledgements time out after `milliseconds`. */
  timeout(milliseconds: number): TimedEmitter;
  /** Connects again (after a refused handshake or a server-side disconnect). */
  connect(): void;
}
