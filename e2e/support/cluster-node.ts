// One node of the cluster (see cluster.ts): the published program (packages/mcp-chat-host's
// bundle, as `npm start` runs it) in a child process that never outlives the caller, with its own data folder and config file, its npm MCP servers behind
// the tool counter, and ways to kill it (a crash), stop it and start it again on the same port.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnTied, type TiedProcess } from "@mcp-chat-host/testing";
import { countingServer } from "./cluster-servers";
import { assertProgramBuilt, programPath } from "./host";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The header the balancer sets and the nodes trust. */
export const clusterUserHeader = "x-forwarded-user";

/** One node of the cluster: the published program in a child process. */
export interface ClusterNode {
  readonly name: string;
  /** Its own port on 127.0.0.1 (the balancer proxies to it). */
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the node itself, without the balancer. */
  readonly origin: string;
  /** The port of its sandbox listener (the sandbox balancer proxies to it). */
  readonly sandboxPort: number;
  /** The process id while it runs. */
  pid(): number | undefined;
  /** Whether the process runs. */
  running(): boolean;
  /** What the node printed so far (the last 64 KiB). */
  output(): string;
  /** Tool calls its MCP servers received, per `source/tool`. */
  toolCalls(): Record<string, number>;
  /** Whether its `/readyz` answers 200 now (its database and Redis answer, not draining). */
  ready(): Promise<boolean>;
  /** Its own `/metrics` (the Prometheus text), scraped with its `METRICS_TOKEN`. */
  metrics(): Promise<string>;
  /** Kills the node with SIGKILL (a crash) and waits until it is gone. */
  kill(): Promise<void>;
  /** Stops the node at once (SIGINT: no drain) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `kill` or `stop`) and waits until it is ready. */
  start(): Promise<void>;
}

/** The CLI options that make a node serve the sandbox for the template's names on `port`. */
function sandboxArguments(template: string, port: number): string[] {
  return ["--sandbox-origin-template", template, "--sandbox-port", String(port)];
}

/** How long a node may take to start. */
const nodeStartMs = 90_000;

function readCounts(file: string, source: string): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  const counts: Record<string, number> = {};
  for (const tool of text.split("\n").filter(Boolean)) {
    counts[`${source}/${tool}`] = (counts[`${source}/${tool}`] ?? 0) + 1;
  }
  return counts;
}

async function waitReady(
  tied: TiedProcess,
  origin: string,
  name: string,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + nodeStartMs;
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (/mcp-chat-host is ready/.test(output())) resolve();
    };
    tied.child.stdout?.on("data", check);
    tied.child.once("exit", (code) =>
      reject(new Error(`Node ${name} exited (${code}) before it was ready:\n${output()}`)),
    );
    const timer = setTimeout(
      () => reject(new Error(`Node ${name} was not ready within ${nodeStartMs} ms:\n${output()}`)),
      nodeStartMs,
    );
    timer.unref();
    check();
  });
  await ready;
  // A node answers /readyz 200 once its store and Redis are reachable; older hosts answer 404.
  while (Date.now() < deadline) {
    const status = await fetch(`${origin}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200 || status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Node ${name} did not answer /readyz within ${nodeStartMs} ms:\n${output()}`);
}

/**
 * Prepares a node (its folder and config file); `start()` runs it.
 *
 * @param setup - its name, folder, ports, the public and sandbox origins, servers, model and env.
 * @returns the node, not started yet.
 */
export function createNode(setup: {
  name: string;
  folder: string;
  port: number;
  sandboxPort: number;
  sandboxTemplate: string;
  publicOrigin: string;
  servers: readonly string[];
  model: string | undefined;
  env: Record<string, string>;
}): ClusterNode {
  const { name, folder, port } = setup;
  mkdirSync(folder, { recursive: true });
  const counts = (server: string) => join(folder, `tool-calls-${server}.log`);
  const config = {
    mcpServers: Object.fromEntries(
      setup.servers.map((server) => [server, countingServer(server, counts(server), folder)]),
    ),
  };
  const configFile = join(folder, "mcp-servers.json");
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const args = [
    programPath,
    "--port",
    String(port),
    "--host",
    "127.0.0.1",
    "--data",
    join(folder, "data"),
    "--config",
    configFile,
    "--public-origin",
    setup.publicOrigin,
    "--trusted-header",
    clusterUserHeader,
    "--trusted-proxy",
    "127.0.0.1",
    ...sandboxArguments(setup.sandboxTemplate, setup.sandboxPort),
  ];
  if (setup.model !== undefined) args.push("--model", setup.model);
  const origin = `http://127.0.0.1:${port}`;
  let tied: TiedProcess | undefined;
  let printed = "";
  const output = () => printed;
  return {
    name,
    port,
    origin,
    sandboxPort: setup.sandboxPort,
    pid: () => (tied?.child.exitCode === null ? tied.child.pid : undefined),
    running: () =>
      tied !== undefined && tied.child.exitCode === null && tied.child.signalCode === null,
    output,
    toolCalls() {
      const total: Record<string, number> = {};
      for (const server of setup.servers) Object.assign(total, readCounts(counts(server), server));
      return total;
    },
    ready: () =>
      fetch(`${origin}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      ),
    async metrics() {
      const response = await fetch(`${origin}/metrics`, {
        headers: { authorization: `Bearer ${setup.env["METRICS_TOKEN"] ?? ""}` },
      });
      if (response.status !== 200) throw new Error(`Node ${name}'s /metrics: ${response.status}`);
      return response.text();
    },
    async kill() {
      await tied?.stop("SIGKILL");
    },
    async stop() {
      await tied?.stop("SIGINT", 15_000);
    },
    async start() {
      if (tied !== undefined && tied.child.exitCode === null && tied.child.signalCode === null) {
        return;
      }
      assertProgramBuilt();
      printed = "";
      tied = spawnTied(process.execPath, args, {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: "warn", ...setup.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const keep = (chunk: Buffer) => {
        printed = (printed + chunk.toString()).slice(-65_536);
      };
      tied.child.stdout?.on("data", keep);
      tied.child.stderr?.on("data", keep);
      await waitReady(tied, origin, name, output);
    },
  };
}
