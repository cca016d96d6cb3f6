// A small load balancer of the test suite, on 127.0.0.1: it proxies HTTP and WebSocket upgrades
// to several host nodes (http-proxy-3), picks the node with the fewest open connections, skips a
// node that refuses connections (so the tabs of a killed node reconnect to another), lets a test
// pin a request to a node, and acts as the authenticating proxy of trusted-header mode: it sets
// the user header itself and drops any the browser sent.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createProxyServer } from "http-proxy-3";

/** One node behind the balancer. */
export interface BalancerBackend {
  /** A short name tests pin to (`a`, `b`). */
  readonly name: string;
  /** Its port on 127.0.0.1. */
  readonly port: number;
}

/** How the balancer is set up. Every field but `backends` has a default. */
export interface BalancerOptions {
  readonly backends: readonly BalancerBackend[];
  /** Its own port; default a free one. */
  readonly port?: number;
  /** The header it sets for the host's trusted-header mode; default `x-forwarded-user`. */
  readonly userHeader?: string;
  /** The cookie that names the user (a test sets it per browser context); default `x-test-user`. */
  readonly userCookie?: string;
  /** The user when the request has no user cookie; default none (the host then refuses it). */
  readonly defaultUser?: string;
  /** The cookie or header that pins a request to a backend by name; default `x-test-node`. */
  readonly pinName?: string;
}

/** A running balancer. */
export interface RunningBalancer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Open connections (HTTP requests in flight and WebSockets) per backend name. */
  connections(): Record<string, number>;
  /** WebSocket upgrades each backend took since the start, per backend name. */
  upgrades(): Record<string, number>;
  /** Closes the listener and every connection through it. */
  close(): Promise<void>;
}

const userText = /^[A-Za-z0-9._@-]{1,128}$/;

/** Reads one cookie from a request's `Cookie` header. */
function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      return decodeURIComponent(part.slice(separator + 1).trim());
    }
  }
  return undefined;
}

/** The balancer's own page: sets the user and pin cookies from the query, then goes to `/`. */
const choosePath = "/__balancer/choose";

/**
 * Answers `GET /__balancer/choose?user=<id>&node=<name>`: sets the user cookie and the pin cookie
 * (an empty value clears it) and redirects to `/`, so a person can try several users and nodes
 * from one browser.
 */
function answerChoice(
  request: IncomingMessage,
  response: ServerResponse,
  userCookie: string,
  pinName: string,
): void {
  const query = new URL(request.url ?? "/", "http://balancer").searchParams;
  const cookies: string[] = [];
  const user = query.get("user");
  if (user !== null && (user === "" || userText.test(user))) {
    cookies.push(`${userCookie}=${encodeURIComponent(user)}; Path=/; SameSite=Lax`);
  }
  const node = query.get("node");
  if (node !== null && (node === "" || userText.test(node))) {
    cookies.push(`${pinName}=${encodeURIComponent(node)}; Path=/; SameSite=Lax`);
  }
  response.writeHead(303, { location: "/", "set-cookie": cookies, "cache-control": "no-store" });
  response.end();
}

/** Resolves true when a TCP connection to the port opens, false when it is refused or times out. */
function reachable(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    const timer = setTimeout(() => finish(false), timeoutMs);
    function finish(ok: boolean) {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    }
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/**
 * Starts the balancer on 127.0.0.1.
 *
 * Which node takes a request: the one named by the pin cookie or header when it accepts
 * connections; otherwise the one with the fewest open connections (ties in turn). A node that
 * refuses the connection is skipped for the next. The user header is always replaced: the
 * value of the user cookie, else `defaultUser`, else none.
 *
 * @param options - the backends and the names of the user header and the test cookies.
 * @returns the running balancer; call `close()` when done.
 */
export async function startBalancer(options: BalancerOptions): Promise<RunningBalancer> {
  if (options.backends.length === 0) throw new Error("The balancer needs at least one backend.");
  const userHeader = (options.userHeader ?? "x-forwarded-user").toLowerCase();
  const userCookie = options.userCookie ?? "x-test-user";
  const pinName = (options.pinName ?? "x-test-node").toLowerCase();
  const open = new Map(options.backends.map((backend) => [backend.name, 0]));
  const upgraded = new Map(options.backends.map((backend) => [backend.name, 0]));
  const clientSockets = new Set<Socket>();
  let turn = 0;
  const proxy = createProxyServer({ xfwd: true, ws: true, proxyTimeout: 120_000 });
  // Errors are answered per request (below); this keeps an unanswered one from crashing the test.
  proxy.on("error", () => {});

  /** The backends in the order to try: the pinned one first, then fewest connections. */
  function candidates(request: IncomingMessage): BalancerBackend[] {
    const pinned = request.headers[pinName] ?? cookieOf(request, pinName);
    turn = (turn + 1) % options.backends.length;
    const rotated = [...options.backends.slice(turn), ...options.backends.slice(0, turn)];
    const ordered = rotated.sort(
      (left, right) => (open.get(left.name) ?? 0) - (open.get(right.name) ?? 0),
    );
    const first = ordered.findIndex((backend) => backend.name === pinned);
    if (first > 0) ordered.unshift(...ordered.splice(first, 1));
    return ordered;
  }

  async function choose(request: IncomingMessage): Promise<BalancerBackend | undefined> {
    for (const backend of candidates(request)) {
      if (await reachable(backend.port)) return backend;
    }
    return undefined;
  }

  /** Replaces the user header as an authenticating proxy does. */
  function authenticate(request: IncomingMessage): void {
    delete request.headers[userHeader];
    const user = cookieOf(request, userCookie) ?? options.defaultUser;
    if (user !== undefined && userText.test(user)) request.headers[userHeader] = user;
  }

  function track(backend: BalancerBackend, done: Duplex | ServerResponse): void {
    open.set(backend.name, (open.get(backend.name) ?? 0) + 1);
    done.once("close", () => open.set(backend.name, (open.get(backend.name) ?? 1) - 1));
  }

  const server = createServer((request, response) => {
    if (request.url?.startsWith(choosePath)) {
      answerChoice(request, response, userCookie, pinName);
      return;
    }
    authenticate(request);
    void choose(request).then((backend) => {
      if (backend === undefined) {
        response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
        response.end("No host node is reachable behind the balancer; start one and reload.\n");
        return;
      }
      track(backend, response);
      proxy.web(request, response, { target: `http://127.0.0.1:${backend.port}` }, () => {
        if (!response.headersSent) {
          response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
          response.end(`The host node ${backend.name} did not answer; reload to try another.\n`);
        } else {
          response.destroy();
        }
      });
    });
  });
  server.on("connection", (socket) => {
    clientSockets.add(socket);
    socket.once("close", () => clientSockets.delete(socket));
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    authenticate(request);
    socket.on("error", () => {});
    void choose(request).then((backend) => {
      if (backend === undefined) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n");
        return;
      }
      track(backend, socket);
      upgraded.set(backend.name, (upgraded.get(backend.name) ?? 0) + 1);
      proxy.ws(request, socket, head, { target: `http://127.0.0.1:${backend.port}` }, () => {
        socket.destroy();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 0, host: "127.0.0.1" }, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => Object.fromEntries(open),
    upgrades: () => Object.fromEntries(upgraded),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of clientSockets) socket.destroy();
      server.closeAllConnections();
      await closed;
      proxy.close();
    },
  };
}
