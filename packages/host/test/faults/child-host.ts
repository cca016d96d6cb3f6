// Runs fixtures/crash-host.ts as a child process (through tsx) and signs in to it, so a fault test
// can kill the whole host with SIGKILL and start it again on the same data folder.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { signInThrough } from "../../src/testing/http-layer-support";
import { connectTestClient, type TestClient } from "../harness";

const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/crash-host.ts", import.meta.url));
const startLimitMs = 30_000;

/** A host running in a child process. */
export interface ChildHost {
  /** The host's origin (`http://127.0.0.1:<port>`). */
  url: string;
  /** The child's pid. */
  pid: number;
  /** Connects a signed-in socket.io client. */
  connect(tabId: string): Promise<TestClient>;
  /** Kills the host with SIGKILL (no shutdown code runs) and waits until it is gone. */
  kill(): Promise<void>;
  /** What the child wrote to stderr so far (its warnings), for failure messages. */
  output(): string;
}

/**
 * Starts the crash-host fixture on a data folder and signs in through its one-time URL.
 *
 * @param data - the folder holding the SQLite file and the tool-call log; reuse it to restart.
 * @param running - children started, so the test file can kill what a failed test left.
 * @throws when the child exits or is not ready within 30 s.
 */
export async function startChildHost(data: string, running: Set<ChildProcess>): Promise<ChildHost> {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, data], {
    cwd: packageRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const ready = await new Promise<{ url: string; signIn: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The child host was not ready within ${startLimitMs} ms:\n${stderr}`));
    }, startLimitMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const line = /^READY (.+)$/m.exec(stdout)?.[1];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { url: string; signIn: string });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`The child host exited (${code ?? signal}) before it was ready:\n${stderr}`),
      );
    });
  });
  const port = Number(new URL(ready.url).port);
  const { cookie } = await signInThrough(port, ready.signIn);
  const clients: TestClient[] = [];
  return {
    url: ready.url,
    pid: child.pid ?? 0,
    async connect(tabId) {
      const client = await connectTestClient(ready.url, { cookie, origin: ready.url, tabId });
      clients.push(client);
      return client;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      for (const client of clients) client.close();
    },
    output: () => stderr,
  };
}
