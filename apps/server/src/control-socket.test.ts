// The control socket on real unix sockets in a temporary data folder: its mode, one request and
// one answer, a socket left behind by a server that is gone, one that still answers, a path too
// long for a socket, and requests or answers that are not what they should be.
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ControlHandler,
  type ControlSocket,
  ControlSocketError,
  askControlSocket,
  controlSocketPath,
  openControlSocket,
} from "./control-socket";

let data = "";
const opened: ControlSocket[] = [];
const warnings: string[] = [];
const logger = { warn: (_details: object, message: string) => warnings.push(message) };

beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), "mch-control-"));
  warnings.length = 0;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((socket) => socket.close()));
  rmSync(data, { recursive: true, force: true });
});

async function open(handler: ControlHandler = (request) => ({ echo: request })) {
  const socket = await openControlSocket(data, handler, logger);
  if (socket !== null) opened.push(socket);
  return socket;
}

async function askError(folder: string, request: unknown): Promise<ControlSocketError> {
  try {
    await askControlSocket(folder, request, 5_000);
  } catch (error) {
    if (error instanceof ControlSocketError) return error;
    throw error;
  }
  throw new Error("expected a ControlSocketError");
}

/** A server on the control socket's path that answers every connection with `reply` as it is. */
function rawServer(reply: string): Promise<Server> {
  const server = createServer((socket) => {
    // Read (and drop) the request, so the client's end is seen and the connection closes.
    socket.resume();
    socket.end(reply);
  });
  return new Promise((resolve) => server.listen(controlSocketPath(data), () => resolve(server)));
}

describe("the control socket", () => {
  it("listens owner-only in the data folder and answers one JSON line with one", async () => {
    const socket = await open();
    expect(socket?.path).toBe(join(data, "control.sock"));
    const stat = lstatSync(controlSocketPath(data));
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(await askControlSocket(data, { command: "sign-in" })).toEqual({
      echo: { command: "sign-in" },
    });
    expect(warnings).toEqual([]);
  });

  it("removes its file when it closes, so nothing answers any more", async () => {
    const socket = await open();
    await socket?.close();
    expect(existsSync(controlSocketPath(data))).toBe(false);
    expect((await askError(data, { command: "sign-in" })).code).toBe("no_server");
  });

  it("replaces a socket left by a server that is gone", async () => {
    // A child listens, then exits at once without closing: its socket file stays behind.
    const path = controlSocketPath(data);
    const child = spawn(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`,
    ]);
    await new Promise((resolve) => child.once("exit", resolve));
    expect(lstatSync(path).isSocket()).toBe(true);
    expect((await askError(data, {})).code).toBe("no_server");
    const socket = await open(() => ({ fresh: true }));
    expect(socket).not.toBeNull();
    expect(await askControlSocket(data, {})).toEqual({ fresh: true });
    expect(warnings).toEqual([]);
  });

  it("leaves a socket that another server still answers on, and says so", async () => {
    const first = await open(() => ({ server: "first" }));
    expect(first).not.toBeNull();
    expect(await open(() => ({ server: "second" }))).toBeNull();
    expect(warnings.join(" ")).toContain("Another running server answers");
    expect(await askControlSocket(data, {})).toEqual({ server: "first" });
  });

  it("leaves a file of that name that is not a socket alone", async () => {
    writeFileSync(controlSocketPath(data), "mine");
    expect(await open()).toBeNull();
    expect(warnings.join(" ")).toContain("not a socket");
    expect(readFileSync(controlSocketPath(data), "utf8")).toBe("mine");
  });

  it("refuses a path too long for a unix socket instead of cutting it short", async () => {
    const deep = join(data, "d".repeat(120));
    expect(await openControlSocket(deep, () => ({}), logger)).toBeNull();
    expect(warnings.join(" ")).toContain("use a data folder with a shorter path");
    const error = await askError(deep, {});
    expect(error.code).toBe("no_server");
    expect(error.message).toContain("use a data folder with a shorter path (--data)");
  });

  it("answers a request that is not JSON, or too long, with a refusal", async () => {
    await open();
    const notJson = await new Promise<string>((resolve) =>
      rawClient("this is not json\n", resolve),
    );
    expect(JSON.parse(notJson)).toEqual({
      ok: false,
      reason: "bad_request",
      message: "The request is not JSON.",
    });
    const tooLong = await new Promise<string>((resolve) => rawClient("x".repeat(20_000), resolve));
    expect(JSON.parse(tooLong)).toMatchObject({ ok: false, message: "The request is too long." });
  });

  it("reports a handler's error as a failed answer", async () => {
    await open(() => {
      throw new Error("The server is not listening yet.");
    });
    expect(await askControlSocket(data, {})).toEqual({
      ok: false,
      reason: "failed",
      message: "The server is not listening yet.",
    });
  });

  it("tells a client apart answers that are not JSON or never come", async () => {
    const garbage = await rawServer("<html>\n");
    expect((await askError(data, {})).code).toBe("bad_answer");
    await new Promise((resolve) => garbage.close(resolve));
    const silent = await rawServer("");
    const error = await askError(data, {});
    expect(error.code).toBe("bad_answer");
    expect(error.message).toBe("The server ended the connection without an answer.");
    await new Promise((resolve) => silent.close(resolve));
  });
});

/** Writes `text` to the control socket as it is and collects the answer until the server ends. */
function rawClient(text: string, onAnswer: (answer: string) => void): void {
  const socket = createConnection(controlSocketPath(data));
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (answer += chunk));
  socket.on("close", () => onAnswer(answer.trim()));
  // A write cut off by the server's end is fine: the answer came before it.
  socket.on("error", () => undefined);
  socket.on("connect", () => socket.write(text));
}
