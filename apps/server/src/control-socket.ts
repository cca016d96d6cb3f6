// The running server's control socket: a unix socket in the data folder through which commands
// run on the same machine (`mcp-chat-host sign-in`) ask the server for something. One JSON line
// in, one JSON line out, then the connection ends.
//
// Only the owner can connect: the socket is created with mode 0600 inside the data folder, which
// is 0700 (see data-folder.ts), and the kernel checks both on connect. Node has no API for the
// peer's credentials (SO_PEERCRED), so those modes are the whole check; root can always connect.
import { errorMessage } from "@mcp-chat-host/protocol";
import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

/** The control socket's file name inside the data folder. */
const CONTROL_SOCKET_NAME = "control.sock";

/** The most bytes a request or an answer may have. */
const MAX_LINE_BYTES = 16_384;

/** How long a connection may stay open without a full request. */
const IDLE_TIMEOUT_MS = 5_000;

/**
 * The longest socket path a unix socket address holds (108 bytes with the final NUL on Linux);
 * libuv would cut a longer one short, and listen or connect somewhere else.
 */
const MAX_SOCKET_PATH_BYTES = 107;

/**
 * The control socket's path for a data folder.
 *
 * @param data - the data folder (`--data`).
 * @returns `<data>/control.sock`.
 */
export function controlSocketPath(data: string): string {
  return join(data, CONTROL_SOCKET_NAME);
}

/** Answers one request line (already parsed as JSON) with a value sent back as JSON. */
export type ControlHandler = (request: unknown) => unknown;

/** What the server side reports. */
export interface ControlLogger {
  warn(details: object, message: string): void;
}

/** A listening control socket. */
export interface ControlSocket {
  readonly path: string;
  /** Stops listening and removes the socket file. */
  close(): Promise<void>;
}

/** Why a control socket could not be reached; the message says what to do. */
export class ControlSocketError extends Error {
  override readonly name = "ControlSocketError";

  constructor(
    readonly code: "no_server" | "not_allowed" | "no_answer" | "bad_answer",
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether a server answers on `path`: true when it accepts a connection. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

function tooLongMessage(path: string): string {
  return `The control socket's path ${path} is longer than ${MAX_SOCKET_PATH_BYTES} bytes, the most a unix socket path can be: use a data folder with a shorter path (--data).`;
}

/** Reads one line of at most {@link MAX_LINE_BYTES} from a socket; `onLine` gets it without its newline. */
function readLine(socket: Socket, onLine: (line: string) => void, onTooLong: () => void): void {
  let buffered = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    const end = buffered.indexOf("\n");
    if (end !== -1) {
      socket.removeAllListeners("data");
      onLine(buffered.slice(0, end));
    } else if (Buffer.byteLength(buffered) > MAX_LINE_BYTES) {
      socket.removeAllListeners("data");
      onTooLong();
    }
  });
}

/**
 * Listens on `<data>/control.sock` with mode 0600. A socket file left by a server that is gone
 * (it no longer answers) is removed first; when another server still answers there, or the path
 * is not a socket, nothing listens and the reason is logged: the server runs on without it.
 *
 * @param data - the data folder, already private (0700).
 * @param handler - answers each request.
 * @param logger - where a socket that cannot be opened is reported.
 * @returns the socket, or null when it could not be opened.
 */
export async function openControlSocket(
  data: string,
  handler: ControlHandler,
  logger: ControlLogger,
): Promise<ControlSocket | null> {
  const path = controlSocketPath(data);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    logger.warn(
      { path },
      `${tooLongMessage(path)} Until then \`mcp-chat-host sign-in\` will not reach this server.`,
    );
    return null;
  }
  let existing;
  try {
    existing = lstatSync(path);
  } catch {
    existing = null;
  }
  if (existing !== null) {
    if (!existing.isSocket()) {
      logger.warn(
        { path },
        "The data folder holds a file named control.sock that is not a socket; `mcp-chat-host sign-in` will not reach this server until it is removed.",
      );
      return null;
    }
    if (await answers(path)) {
      logger.warn(
        { path },
        "Another running server answers on this data folder's control socket, so this one does not; `mcp-chat-host sign-in` reaches the other one.",
      );
      return null;
    }
    // Left by a server that stopped without removing it.
    try {
      unlinkSync(path);
    } catch (error) {
      logger.warn(
        { path, code: errorCode(error) },
        "Could not remove the control socket a stopped server left; `mcp-chat-host sign-in` will not reach this server.",
      );
      return null;
    }
  }
  const server = createServer((socket) => serve(socket, handler));
  try {
    await listenPrivately(server, path);
  } catch (error) {
    logger.warn(
      { path, code: errorCode(error) },
      "Could not open the control socket; `mcp-chat-host sign-in` will not reach this server.",
    );
    return null;
  }
  return {
    path,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Binds with a umask that leaves the socket to its owner, then sets 0600 explicitly. */
async function listenPrivately(server: Server, path: string): Promise<void> {
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } finally {
    process.umask(previous);
  }
  chmodSync(path, 0o600);
}

function serve(socket: Socket, handler: ControlHandler): void {
  socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  const reply = (value: unknown) => socket.end(`${JSON.stringify(value)}\n`);
  readLine(
    socket,
    (line) => {
      let request: unknown;
      try {
        request = JSON.parse(line);
      } catch {
        reply({ ok: false, reason: "bad_request", message: "The request is not JSON." });
        return;
      }
      try {
        reply(handler(request));
      } catch (error) {
        const message = errorMessage(error);
        reply({ ok: false, reason: "failed", message });
      }
    },
    () => reply({ ok: false, reason: "bad_request", message: "The request is too long." }),
  );
}

/**
 * Sends one request to the server listening on `<data>/control.sock` and reads its answer.
 *
 * @param data - the data folder the server was started with.
 * @param request - sent as one JSON line.
 * @param timeoutMs - how long to wait for the answer.
 * @returns the answer, parsed as JSON (the caller validates it).
 * @throws {ControlSocketError} `no_server` when nothing listens, `not_allowed` when the socket
 *   belongs to another user, `no_answer` on a timeout, `bad_answer` for an answer that is not JSON.
 */
export function askControlSocket(
  data: string,
  request: unknown,
  timeoutMs = 10_000,
): Promise<unknown> {
  const path = controlSocketPath(data);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    return Promise.reject(new ControlSocketError("no_server", tooLongMessage(path)));
  }
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const fail = (error: ControlSocketError) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () =>
      fail(
        new ControlSocketError(
          "no_answer",
          `The server at ${path} did not answer within ${timeoutMs / 1000} s. Check that it is running, then try again.`,
        ),
      ),
    );
    socket.once("error", (error) => {
      const code = errorCode(error);
      if (code === "EACCES" || code === "EPERM") {
        fail(
          new ControlSocketError(
            "not_allowed",
            `Not allowed to reach the server at ${path}: run this command as the user who started the server.`,
            { cause: error },
          ),
        );
      } else {
        fail(
          new ControlSocketError(
            "no_server",
            `No server is running with the data folder ${data} (nothing answers at ${path}). Start it (npm start, or mcp-chat-host --data ${data}); it prints a sign-in URL when it is ready.`,
            { cause: error },
          ),
        );
      }
    });
    socket.once("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    readLine(
      socket,
      (line) => {
        socket.end();
        try {
          resolve(JSON.parse(line));
        } catch (error) {
          fail(
            new ControlSocketError("bad_answer", "The server's answer is not JSON.", {
              cause: error,
            }),
          );
        }
      },
      () => fail(new ControlSocketError("bad_answer", "The server's answer is too long.")),
    );
    socket.once("end", () =>
      fail(
        new ControlSocketError("bad_answer", "The server ended the connection without an answer."),
      ),
    );
  });
}
