// Helpers for this folder's tests: a layer listening on 127.0.0.1 port 0, sign-in, raw HTTP
// requests with any headers (fetch cannot set Host), and a socket.io client that reports how its
// connection attempt ended.
import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import { io as connectClient, type Socket as ClientSocket } from "socket.io-client";
import { createHttpLayer, type HttpLayer, type HttpLayerOptions } from "../server/http-layer";

/** A log line as pino writes it. */
export type LogLine = Record<string, unknown> & { level: number; msg?: string };

/** A pino logger whose lines are kept in memory. */
export function memoryLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n"))
        if (line.trim() !== "") lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

/** A listening layer and its addresses. */
export interface StartedLayer {
  layer: HttpLayer;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `127.0.0.1:<port>`. */
  host: string;
}

/**
 * Creates a layer and listens on 127.0.0.1 port 0.
 * @param cleanups - the test file's list of things to close afterwards.
 */
export async function startLayer(
  cleanups: Array<() => Promise<void> | void>,
  options: HttpLayerOptions = {},
): Promise<StartedLayer> {
  const layer = createHttpLayer(options);
  cleanups.push(() => layer.close());
  const { port, url } = await layer.listen({ port: 0, host: "127.0.0.1" });
  return { layer, port, origin: url, host: `127.0.0.1:${port}` };
}

/** An HTTP answer. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one HTTP request with exactly the given headers (Host included) and no keep-alive.
 * @param port - the port on 127.0.0.1.
 */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { connection: "close", ...options.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The session binding each signed-in cookie came with, as the host page keeps it. */
const bindingsByCookie = new Map<string, string>();

/**
 * The session binding of the sign-in page (the `<meta name="mch-session-binding">`), as the
 * page's script reads it.
 * @returns the binding, or undefined when the page has none.
 */
export function bindingOfSignInPage(html: string): string | undefined {
  return /<meta name="mch-session-binding" content="([^"]*)">/.exec(html)?.[1];
}

/**
 * The binding the sign-in gave with this cookie (what a signed-in host page would send).
 * @param cookie - the `name=value` that {@link signIn} returned.
 */
export function bindingOf(cookie: string): string | undefined {
  return bindingsByCookie.get(cookie);
}

/**
 * Spends a one-time sign-in URL on 127.0.0.1, as a browser would: the sign-in page sets the
 * cookie and hands over the session binding (kept here for {@link bindingOf}).
 * @param port - the host's port.
 * @param url - the sign-in URL.
 * @param host - the `Host` header to send (default `127.0.0.1:<port>`).
 * @returns the cookie's `name=value`, the raw `Set-Cookie` and the binding.
 */
export async function signInThrough(
  port: number,
  url: string,
  host = `127.0.0.1:${port}`,
): Promise<{ cookie: string; setCookie: string; binding: string }> {
  const target = new URL(url);
  const response = await rawRequest(port, `${target.pathname}${target.search}`, {
    headers: { host },
  });
  const setCookie = response.headers["set-cookie"]?.[0];
  const binding = bindingOfSignInPage(response.body);
  if (response.status !== 200 || setCookie === undefined || binding === undefined)
    throw new Error(`Sign-in failed with ${response.status}: ${response.body}`);
  const cookie = setCookie.split(";")[0] ?? "";
  bindingsByCookie.set(cookie, binding);
  return { cookie, setCookie, binding };
}

/**
 * Signs in a layer through its one-time URL (see {@link signInThrough}).
 * @returns the `Cookie` header value to send afterwards, the raw `Set-Cookie`, the binding and
 *   headers for a data route (`cookie` and `x-mch-session-binding`).
 */
export async function signIn(
  started: StartedLayer,
  url = started.layer.urls.signIn,
): Promise<{
  cookie: string;
  setCookie: string;
  binding: string;
  headers: Record<string, string>;
}> {
  if (url === null) throw new Error("This layer has no sign-in URL (not the token mode).");
  const signedIn = await signInThrough(started.port, url, started.host);
  return {
    ...signedIn,
    headers: { cookie: signedIn.cookie, "x-mch-session-binding": signedIn.binding },
  };
}

/** How a socket.io connection attempt ended. */
export type ConnectOutcome =
  | { connected: true; socket: ClientSocket }
  | { connected: false; error: Error & { data?: unknown } };

/**
 * Opens a socket.io client (WebSocket only, no reconnection) with the given handshake headers and
 * waits for `connect` or `connect_error`. Like the host page, it sends the session binding that
 * came with the cookie of `headers` (from {@link signIn}), unless `auth` says otherwise.
 * @param cleanups - the client is closed afterwards.
 * @param auth - the handshake's `auth` object (default: `{ binding }` of the cookie, if known).
 */
export function connectSocket(
  cleanups: Array<() => Promise<void> | void>,
  origin: string,
  headers: Record<string, string>,
  auth?: Record<string, unknown>,
): Promise<ConnectOutcome> {
  const known = headers["cookie"] === undefined ? undefined : bindingOf(headers["cookie"]);
  const socket = connectClient(origin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
    auth: auth ?? (known === undefined ? {} : { binding: known }),
    timeout: 10_000,
  });
  cleanups.push(() => {
    socket.close();
  });
  return new Promise((resolve) => {
    socket.once("connect", () => resolve({ connected: true, socket }));
    socket.once("connect_error", (error: Error & { data?: unknown }) => {
      socket.close();
      resolve({ connected: false, error });
    });
  });
}

/** Runs and empties a list of cleanups, last first. */
export async function runCleanups(cleanups: Array<() => Promise<void> | void>): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()?.();
}
