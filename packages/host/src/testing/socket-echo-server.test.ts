import { afterEach, describe, expect, it } from "vitest";
import { connectSocketTestClient, type SocketTestClient } from "./socket-test-client";
import {
  SOCKET_ECHO_EVENT,
  startSocketEchoServer,
  type SocketEchoServer,
} from "./socket-echo-server";

describe("startSocketEchoServer", () => {
  let server: SocketEchoServer | undefined;
  let client: SocketTestClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
  });

  it("acknowledges the echo event with the payload it was sent, as the host's acks are shaped", async () => {
    server = await startSocketEchoServer();
    client = await connectSocketTestClient(server.origin, { tabId: "echo" });
    const payload = { instanceId: "card-1", name: "echo", arguments: { text: "ping" } };
    const ack: unknown = await client.socket.timeout(5_000).emitWithAck(SOCKET_ECHO_EVENT, payload);
    expect(ack).toEqual({ ok: true, value: payload });
  });
});
