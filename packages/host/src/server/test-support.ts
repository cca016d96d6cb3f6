// Helpers for this folder's tests: a layer listening on 127.0.0.1 port 0, sign-in, raw HTTP
// requests with any headers (fetch cannot set Host), and a socket.io client that reports how its
// connection attempt ended.
import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import { io as connectClient, type Socket as ClientSocket } from "socket.io-client";
import { createHttpLayer, type HttpLayer, type HttpLayerOptions } from "./http-layer";

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

/**
 * Signs in through the one-time URL.
 * @returns the `Cookie` header value to send afterwards and the raw `Set-Cookie`.
 */
export async function signIn(
  started: StartedLayer,
  url = started.layer.urls.signIn,
): Promise<{ cookie: string; setCookie: string }> {
  if (url === null) throw new Error("This layer has no sign-in URL (not the token mode).");
  const target = new URL(url);
  const response = await rawRequest(started.port, `${target.pathname}${target.search}`, {
    headers: { host: started.host },
  });
  const setCookie = response.headers["set-cookie"]?.[0];
  if (response.status !== 303 || setCookie === undefined)
    throw new Error(`Sign-in failed with ${response.status}: ${response.body}`);
  return { cookie: setCookie.split(";")[0] ?? "", setCookie };
}

/** How a socket.io connection attempt ended. */
export type ConnectOutcome =
  | { connected: true; socket: ClientSocket }
  | { connected: false; error: Error & { data?: unknown } };

/**
 * Opens a socket.io client (WebSocket only, no reconnection) with the given handshake headers and
 * waits for `connect` or `connect_error`.
 * @param cleanups - the client is closed afterwards.
 */
export function connectSocket(
  cleanups: Array<() => Promise<void> | void>,
  origin: string,
  headers: Record<string, string>,
): Promise<ConnectOutcome> {
  const socket = connectClient(origin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
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
