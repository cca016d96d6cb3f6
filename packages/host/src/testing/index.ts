/**
 * Test plumbing of `@mcp-chat-host/host`, for the tests and benchmarks of this repository
 * (`@mcp-chat-host/host/testing`): a socket.io client that speaks the wire contract as the host
 * page does, a plain socket.io echo server (the socket.io part of the server path's floor), and a
 * reader of one series of a `/metrics` scrape. The client needs `socket.io-client` installed by
 * the caller (a devDependency here).
 */
export {
  connectSocketTestClient,
  SocketRequestError,
  type SocketTestClient,
  type SocketTestClientOptions,
} from "./socket-test-client";
export { metricSample } from "./metric-sample";
export {
  SOCKET_ECHO_EVENT,
  startSocketEchoServer,
  type SocketEchoServer,
} from "./socket-echo-server";
