// The published program (packages/mcp-chat-host/dist/cli.js, started with plain `node`) exporting
// its traces to a collector stand-in, for the traces specs: it is started, signed in through its
// one-time URL and connected to with a socket.io client that speaks the wire contract.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectSocketTestClient, type SocketTestClient } from "@mcp-chat-host/host/testing";
import { spawnTied, type TiedProcess } from "@mcp-chat-host/testing";

/** The bundle `npx turbo run build` makes. */
const publishedCli = fileURLToPath(
  new URL("../../packages/mcp-chat-host/dist/cli.js", import.meta.url),
);

/** A started program. */
export interface StartedProgram {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The one-time sign-in URL it printed. */
  signIn: string;
  /** What it printed so far. */
  output(): string;
  /** SIGTERM (the drain), then waits for its exit. */
  stop(): Promise<void>;
  /** Its exit code once it exited. */
  exitCode(): number | null;
  process: TiedProcess;
}

/** How long the program may take to print its sign-in URL. */
const startMs = 60_000;

/**
 * Starts the published program with `env` (plus PATH and HOME) in a data folder of its own.
 *
 * @param args - more command-line arguments.
 * @param nodeArgs - arguments for `node` itself (before the script).
 */
export async function startProgram(
  env: Record<string, string>,
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<StartedProgram> {
  const data = mkdtempSync(join(tmpdir(), "mch-traces-"));
  const tied = spawnTied(
    process.execPath,
    [...nodeArgs, publishedCli, "--port", "0", "--data", data, ...args],
    {
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: process.env["HOME"] ?? "",
        LOG_LEVEL: "info",
        MODEL: "offline",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const signIn = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`The program printed no sign-in URL within ${startMs} ms:\n${output}`));
    }, startMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const found = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)?.[1];
      if (found === undefined) return;
      clearTimeout(timer);
      resolve(found);
    };
    tied.child.stdout?.on("data", onData);
    tied.child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    void tied.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The program exited before it was ready:\n${output}`));
    });
  });
  return {
    origin: new URL(signIn).origin,
    signIn,
    output: () => output,
    async stop() {
      await tied.stop("SIGTERM", 30_000);
      rmSync(data, { recursive: true, force: true });
    },
    exitCode: () => tied.child.exitCode,
    process: tied,
  };
}

/**
 * Spends the sign-in URL as the browser does and connects a tab's socket with the cookie and the
 * session binding the sign-in page gave.
 */
export async function signedInClient(signIn: string, tabId = "tab-1"): Promise<SocketTestClient> {
  const origin = new URL(signIn).origin;
  const response = await fetch(signIn, { redirect: "manual" });
  const setCookie = response.headers.getSetCookie()[0];
  const html = await response.text();
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(html)?.[1];
  if (response.status !== 200 || setCookie === undefined || binding === undefined) {
    throw new Error(`Sign-in failed with ${response.status}`);
  }
  return connectSocketTestClient(origin, {
    tabId,
    cookie: setCookie.split(";")[0] ?? "",
    binding,
    origin,
  });
}
