import type { ClientToServerEvents, ServerToClientEvents } from "@mcp-chat-host/protocol";
import { io, type Socket } from "socket.io-client";
import type { HostSocket, HostSocketListeners, TimedEmitter } from "./host-socket";
import { readSessionBinding } from "./session-binding";

/** The typed socket.io client socket of the host page. */
export type HostSocketIo = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens the page's one socket to the server it was served from. The session cookie (HttpOnly)
 * travels with the WebSocket handshake, and the session binding from this origin's storage in its
 * `auth` (read again at every reconnect); `tabId` lets a reload or a reconnect find the same
 * server session.
 *
 * @param tabId - this tab's id (see `tabIdFrom`).
 * @returns the socket, adapted to {@link HostSocket}.
 */
export function createHostSocket(tabId: string): HostSocket {
  const raw: HostSocketIo = io({
    transports: ["websocket"],
    auth: (send) => {
      const binding = readSessionBinding();
      send(binding === undefined ? { tabId } : { tabId, binding });
    },
  });
  return adaptSocket(raw);
}

/**
 * Adapts a socket.io client socket to {@link HostSocket}. socket.io's own generic signatures are
 * wider than TypeScript can match against ours, so the adapter is the one place that casts.
 *
 * @param raw - the socket.io socket.
 * @returns the adapted socket; it shares the raw socket's state.
 */
export function adaptSocket(raw: HostSocketIo): HostSocket {
  type LooseSocket = {
    on(event: string, listener: (...args: never[]) => void): void;
    off(event: string, listener: (...args: never[]) => void): void;
    timeout(milliseconds: number): {
      emitWithAck(event: string, payload: unknown): Promise<unknown>;
    };
  };
  const loose = raw as unknown as LooseSocket;
  return {
    get connected() {
      return raw.connected;
    },
    on<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]) {
      loose.on(event, listener as (...args: never[]) => void);
    },
    off<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]) {
      loose.off(event, listener as (...args: never[]) => void);
    },
    timeout(milliseconds: number): TimedEmitter {
      return loose.timeout(milliseconds) as unknown as TimedEmitter;
    },
    connect() {
      raw.connect();
    },
  };
}
