// A real socket.io server on 127.0.0.1 (port 0) for the cards' tests: it records what the page
// sends and answers each event the way a test says, so the page's socket is the real client.
// Only tests import this file.
import {
  ackError,
  ackOk,
  type Ack,
  type ClientEventName,
  type ClientEventValues,
  type ClientPayload,
  type ClientToServerEvents,
  type ServerEvents,
  type ServerToClientEvents,
  type WireError,
} from "@mcp-chat-host/protocol";
import { Server, type Socket as ServerSocket } from "socket.io";
import { io } from "socket.io-client";
import { adaptSocket, type HostSocketIo } from "../../socket/create-host-socket";
import type { HostSocket } from "../../socket/host-socket";

/** One event the page sent, in arrival order. */
export interface ReceivedEvent {
  event: ClientEventName;
  payload: unknown;
}

type Answer<E extends ClientEventName> = (
  payload: ClientPayload<E>,
) => ClientEventValues[E] | WireError | Promise<ClientEventValues[E] | WireError> | "no-answer";

interface NodeHttpServer {
  listen(port: number, host: string, callback: () => void): void;
  address(): { port: number } | string | null;
  close(callback?: () => void): void;
  closeAllConnections?(): void;
}

/** The test server, its client socket, and what it saw. */
export interface CardSocketServer {
  /** The page's socket (socket.io's real client, adapted as the page adapts it), connected. */
  client: HostSocket;
  /** Every event the page sent, in order. */
  received: ReceivedEvent[];
  /** Sets how the server answers an event (default: a `not_found` error). */
  answer<E extends ClientEventName>(event: E, answer: Answer<E>): void;
  /**
   * Resolves with the first `event` the page sent at or after position `since` of
   * {@link CardSocketServer.received} (default 0: the first ever), waiting for it if needed.
   */
  next(event: ClientEventName, since?: number): Promise<ReceivedEvent>;
  /** Sends a server event to the page. */
  emit<E extends keyof ServerEvents>(event: E, payload: ServerEvents[E]): void;
  close(): Promise<void>;
}

function isWireError(value: unknown): value is WireError {
  return value !== null && typeof value === "object" && "code" in value && "retryable" in value;
}

/**
 * Starts the server and connects a client to it.
 *
 * @returns the server handle; close it after the test.
 */
export async function startCardSocketServer(): Promise<CardSocketServer> {
  // Loaded by a computed name so the web app's type check (DOM, no Node types) does not need
  // Node's declarations; tests run in Node, where the module exists.
  const httpModuleName = "node:http";
  const http = (await import(/* @vite-ignore */ httpModuleName)) as {
    createServer(): NodeHttpServer;
  };
  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const address = httpServer.address();
  if (address === null || typeof address === "string")
    throw new Error("No port for the test server.");
  const server = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer as never);
  const received: ReceivedEvent[] = [];
  const waiters: Array<{
    event: ClientEventName;
    since: number;
    resolve: (event: ReceivedEvent) => void;
  }> = [];
  const answers = new Map<ClientEventName, Answer<ClientEventName>>();
  const sockets: ServerSocket[] = [];

  server.on("connection", (socket) => {
    sockets.push(socket as unknown as ServerSocket);
    (socket as unknown as ServerSocket).onAny(
      (event: ClientEventName, payload: unknown, ack?: (reply: Ack<unknown>) => void) => {
        const entry = { event, payload };
        received.push(entry);
        const index = received.length - 1;
        for (const waiter of [...waiters]) {
          if (waiter.event === event && index >= waiter.since) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(entry);
          }
        }
        const answer = answers.get(event);
        void (async () => {
          const value =
            answer === undefined
              ? ({
                  code: "not_found",
                  message: `No answer for ${event} in this test.`,
                  retryable: false,
                } as WireError)
              : await answer(payload as never);
          if (value === "no-answer" || typeof ack !== "function") return;
          ack(isWireError(value) ? ackError(value) : ackOk(value));
        })();
      },
    );
  });

  const raw: HostSocketIo = io(`http://127.0.0.1:${address.port}`, {
    transports: ["websocket"],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    raw.once("connect", () => resolve());
    raw.once("connect_error", reject);
  });

  return {
    client: adaptSocket(raw),
    received,
    answer(event, answer) {
      answers.set(event, answer as unknown as Answer<ClientEventName>);
    },
    next(event, since = 0) {
      const index = received.findIndex(
        (entry, position) => position >= since && entry.event === event,
      );
      const found = received[index];
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ event, since, resolve }));
    },
    emit(event, payload) {
      for (const socket of sockets)
        (socket.emit as (name: string, value: unknown) => void)(event, payload);
    },
    async close() {
      raw.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
