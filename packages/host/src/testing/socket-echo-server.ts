// A plain socket.io server that acknowledges one event with what it was sent, and nothing else:
// no host, no session, no gate. The benchmarks time a Node client's acknowledgement against it,
// the socket.io part of the server path's floor.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";

/** The event {@link startSocketEchoServer} acknowledges. */
export const SOCKET_ECHO_EVENT = "echo";

/** A running echo server. */
export interface SocketEchoServer {
  /** Its origin (`http://127.0.0.1:<port>`), for a socket.io client. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts a socket.io server on 127.0.0.1, port 0, WebSocket only (as the host's), whose one
 * event, {@link SOCKET_ECHO_EVENT}, is acknowledged with `{ ok: true, value: <the payload> }`, the
 * shape of the host's acknowledgements. Any other event is ignored.
 *
 * @returns the server, listening.
 * @throws what `listen` fails with (no free port).
 */
export async function startSocketEchoServer(): Promise<SocketEchoServer> {
  const httpServer = createServer();
  const io = new Server(httpServer, { serveClient: false, transports: ["websocket"] });
  io.on("connection", (socket) => {
    socket.on(SOCKET_ECHO_EVENT, (payload: unknown, ack: unknown) => {
      if (typeof ack === "function") ack({ ok: true, value: payload });
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Closes every client's socket and then the HTTP server.
        void io.close(() => resolve());
      }),
  };
}
