// A real Redis for tests: Debian's `redis-server`, started by the test itself on 127.0.0.1 and a
// free port, with its files in a temporary folder that `stop()` removes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { connect as connectTls } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeServerCertificate, type ServerCertificate } from "./test-certificate";
import { freePort, spawnTied, waitForOutput, type TiedProcess } from "./tied-process";

/** How a test Redis is started. Every field has a default. */
export interface RedisOptions {
  /** The program; default `$REDIS_SERVER`, else `redis-server` on the PATH. */
  readonly command?: string;
  /** The port; default a free one. */
  readonly port?: number;
  /** How long start and restart may take, in ms; default 20,000. */
  readonly startTimeoutMs?: number;
  /** A password (`requirepass`) every client must give; `url` then carries it. Default none. */
  readonly password?: string;
  /**
   * With `password`: an ACL user with that password and every right, named in `url` (the default
   * user then also needs the password). Default none: `url` names no user.
   */
  readonly user?: string;
  /**
   * The rights of `user` (ACL rules such as `~mcp-chat-host`, `+xadd`). Default every right:
   * `~* &* +@all`.
   */
  readonly rules?: readonly string[];
  /**
   * More ACL users, each the words after `user` in a Redis config (`["monitor", "on", ">pw",
   * "+ping"]`, or `["default", "off"]` to turn the default user off), set after `user`.
   */
  readonly acl?: readonly (readonly string[])[];
  /**
   * Serve TLS only (`rediss://`), with a certificate for 127.0.0.1 signed by a CA made for this
   * server (its certificate at `caFile`). Default false.
   */
  readonly tls?: boolean;
}

/** A running test Redis. */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>`; with a password `redis://[user]:<password>@127.0.0.1:<port>`. */
  readonly url: string;
  /** The port; a restart keeps it. */
  readonly port: number;
  /** With `tls`: the PEM file of the CA that signed the server's certificate. */
  readonly caFile: string | undefined;
  /** Stops the server (if running) and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port (its data is not kept). */
  restart(): Promise<void>;
  /** Kills the server with SIGKILL and waits until it is gone (a crash); `restart()` brings it back. */
  kill(): Promise<void>;
}

const notFound = [
  "Redis is not installed: the tests need Debian's redis-server.",
  "Install it, then run the tests again:",
  "  Debian/Ubuntu:  sudo apt-get install redis-server   (or: node scripts/ensure-services.mjs as root)",
  "  elsewhere:      install Redis and set REDIS_SERVER=/path/to/redis-server",
].join("\n");

/**
 * Answers whether Redis on `port` replies `+PONG` to `PING`.
 *
 * @param port - the port on 127.0.0.1.
 * @param timeoutMs - how long to wait for the answer.
 */
export function pingRedis(
  port: number,
  timeoutMs = 2_000,
  credentials: { user?: string; password?: string; ca?: Buffer } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      credentials.ca === undefined
        ? connect({ port, host: "127.0.0.1" })
        : connectTls({ port, host: "127.0.0.1", ca: credentials.ca });
    // With a password, AUTH first: its `+OK` line comes before PING's answer.
    const auth =
      credentials.password === undefined
        ? ""
        : `AUTH ${credentials.user === undefined ? "" : `${credentials.user} `}${credentials.password}\r\n`;
    let answer = "";
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.once(credentials.ca === undefined ? "connect" : "secureConnect", () =>
      socket.write(`${auth}PING\r\n`),
    );
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      const lines = answer.split("\r\n");
      const wanted = auth === "" ? 1 : 2;
      if (lines.length > wanted) finish(lines[wanted - 1]?.startsWith("+PONG") === true);
    });
    socket.once("error", () => finish(false));
  });
}

/**
 * Starts Debian's `redis-server` on 127.0.0.1: a config on the command line, no persistence
 * (`--save "" --appendonly no`), its folder under the system's temporary folder. It never
 * outlives the test process (see `spawnTied`).
 *
 * @param options - the program, the port and the start bound.
 * @returns the running server; call `stop()` when done.
 * @throws {Error} a sentence saying how to install Redis when the program is missing, or what it
 *   printed when it did not start.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  const command = options.command ?? process.env["REDIS_SERVER"] ?? "redis-server";
  const port = options.port ?? (await freePort());
  const timeoutMs = options.startTimeoutMs ?? 20_000;
  if (options.user !== undefined && options.password === undefined) {
    throw new Error("startRedis: a user needs a password.");
  }
  const folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-redis-"));
  const credentials = {
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.password === undefined ? {} : { password: options.password }),
  };
  const userInfo =
    options.password === undefined
      ? ""
      : `${encodeURIComponent(options.user ?? "")}:${encodeURIComponent(options.password)}@`;
  let current: TiedProcess | undefined;
  let tls: ServerCertificate | undefined;

  async function launch(): Promise<void> {
    const tied = spawnTied(
      command,
      [
        "--bind",
        "127.0.0.1",
        ...(tls === undefined
          ? ["--port", String(port)]
          : ["--port", "0", "--tls-port", String(port), "--tls-auth-clients", "no"]),
        ...(tls === undefined
          ? []
          : ["--tls-cert-file", tls.certFile, "--tls-key-file", tls.keyFile]),
        ...(tls === undefined ? [] : ["--tls-ca-cert-file", tls.caFile]),
        "--dir",
        folder,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--logfile",
        "",
        "--protected-mode",
        "yes",
        ...(options.password === undefined ? [] : ["--requirepass", options.password]),
        ...(options.password === undefined || options.user === undefined
          ? []
          : [
              "--user",
              options.user,
              "on",
              `>${options.password}`,
              ...(options.rules ?? ["~*", "&*", "+@all"]),
            ]),
        ...(options.acl ?? []).flatMap((words) => ["--user", ...words]),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const spawnError = new Promise<never>((_, reject) =>
      tied.child.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "ENOENT" ? new Error(notFound) : error),
      ),
    );
    current = tied;
    await Promise.race([
      waitForOutput(tied.child, /Ready to accept connections/, timeoutMs, "redis-server"),
      spawnError,
    ]);
    // Keep reading its log so a full pipe never blocks the server.
    tied.child.stdout?.resume();
    tied.child.stderr?.resume();
    const ca = tls === undefined ? {} : { ca: readFileSync(tls.caFile) };
    if (!(await pingRedis(port, 2_000, { ...credentials, ...ca }))) {
      await tied.stop("SIGKILL");
      throw new Error(`redis-server said it was ready on port ${port} but did not answer PING.`);
    }
  }

  try {
    if (options.tls === true) tls = await makeServerCertificate(folder, undefined, timeoutMs);
    await launch();
  } catch (error) {
    await current?.stop("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `${options.tls === true ? "rediss" : "redis"}://${userInfo}127.0.0.1:${port}`,
    port,
    caFile: tls?.caFile,
    async stop() {
      await current?.stop();
      rmSync(folder, { recursive: true, force: true });
    },
    async restart() {
      await current?.stop();
      await launch();
    },
    async kill() {
      await current?.stop("SIGKILL");
    },
  };
}
