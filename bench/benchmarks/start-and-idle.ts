// Benchmark 6, start and idle: how long the server takes from spawn to a `/healthz` that answers,
// and how much memory it holds when idle, against a bare Express + socket.io server started the
// same way in the same run (the floor of any server built on those two). The server is started
// the way `npm start` and `npx mcp-chat-host` run it: the bundle packages/mcp-chat-host/dist/cli.js
// under plain node, with the example apps and the offline model. Goals: a cold start at most 2x
// the bare server's, an idle RSS of at most 100 MiB.
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { errorMessage } from "@mcp-chat-host/protocol";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { startNodeChild, waitForOk } from "../lib/child-process";
import { repositoryRoot, temporaryDirectory } from "../lib/paths";
import { assertProgramBuilt, programBundle } from "../lib/program";
import { mebibytes, residentBytes } from "../lib/process-stats";
import { interleave, median, ratio, summarize } from "../lib/stats";

/** The benchmark's name (the runner's `--only` value). */
export const name = "start-and-idle";

/**
 * The baseline: Express with a `/healthz` route and a socket.io server on the same HTTP server,
 * nothing else. CommonJS, so `node -e` resolves the packages from the repository's node_modules.
 */
const BARE_SERVER = `
const http = require("node:http");
const express = require("express");
const { Server } = require("socket.io");
const app = express();
app.get("/healthz", (_request, response) => response.json({ ok: true }));
const server = http.createServer(app);
new Server(server, { transports: ["websocket"] });
server.listen(0, "127.0.0.1", () => {
  console.log("READY http://127.0.0.1:" + server.address().port);
});
process.on("SIGTERM", () => process.exit(0));
`;

/** One start of one server: the times from spawn, and its memory after idling. */
interface StartSample {
  /** Spawn to the ready line (the URL printed), in ms. */
  printedMs: number;
  /** Spawn to the first 200 from `/healthz`, in ms. */
  healthyMs: number;
  /** Resident memory after idling, in bytes. */
  idleRssBytes: number;
}

interface ServerKind {
  label: string;
  args(data: string): string[];
  readyPattern: RegExp;
}

const cli: ServerKind = {
  label: "host: bundle (node packages/mcp-chat-host/dist/cli.js)",
  // As `npm start` runs it: the example apps, no config file (the other benchmarks start the same
  // bundle through lib/program.ts, with a config file of their own).
  args: (data) => [programBundle, "--port", "0", "--data", data],
  // The CLI prints its one-time sign-in URL under the "is ready" line.
  readyPattern: /is ready[^\n]*\n[\s\S]*?(http:\/\/127\.0\.0\.1:\d+)/,
};

const bare: ServerKind = {
  label: "baseline: bare express + socket.io (node -e)",
  args: () => ["-e", BARE_SERVER],
  readyPattern: /READY (http:\/\/127\.0\.0\.1:\d+)/,
};

/**
 * Starts a server, waits for `/healthz`, idles, reads its RSS and stops it.
 *
 * @param idleMs - how long it idles before its memory is read.
 */
async function startOnce(kind: ServerKind, idleMs: number): Promise<StartSample> {
  const data = temporaryDirectory("mch-bench-start-");
  try {
    const running = await startNodeChild({
      args: kind.args(data),
      cwd: repositoryRoot,
      readyPattern: kind.readyPattern,
      timeoutMs: 60_000,
      // The offline model and no config file, whatever this shell has set; warn-level logs.
      env: { MODEL: "offline", MCP_CHAT_HOST_CONFIG: undefined, LOG_LEVEL: "warn" },
    });
    try {
      const printedAt = performance.now();
      const origin = running.ready[1] ?? "";
      const healthyAt = await waitForOk(`${origin}/healthz`, { timeoutMs: 30_000 });
      // Idling is what is measured here: the wait is the subject, not a synchronisation.
      await delay(idleMs);
      return {
        printedMs: printedAt - running.spawnedAt,
        healthyMs: healthyAt - running.spawnedAt,
        idleRssBytes: residentBytes(running.pid),
      };
    } finally {
      await running.stop();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * Runs the benchmark: N cold starts of each server, interleaved (full: one warm-up and 10 each,
 * 2 s idle; quick: one each, 0.5 s idle).
 *
 * @returns the start times and the idle memory, each with its ratio to the bare server.
 * @throws {BenchFailure} when the bundle or the web app is not built.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  try {
    assertProgramBuilt();
  } catch (error) {
    throw new BenchFailure(errorMessage(error));
  }
  const runs = options.quick ? 1 : 10;
  const idleMs = options.quick ? 500 : 2_000;
  const kinds = [cli, bare];
  const samples = await interleave(
    kinds.map((kind) => ({ label: kind.label, run: () => startOnce(kind, idleMs) })),
    // One unmeasured start each first: it fills the OS file cache, so every measured start is
    // "cold process, warm disk", the same for both.
    { warmup: options.quick ? 0 : 1, iterations: runs, maxMs: options.quick ? 20_000 : 300_000 },
  );
  const of = (kind: ServerKind) => samples.get(kind.label) ?? [];
  const startRows = kinds.map((kind) =>
    summarize(
      kind.label,
      of(kind).map((sample) => sample.healthyMs),
      { printedMedianMs: median(of(kind).map((sample) => sample.printedMs)) },
    ),
  );
  const memoryRows = kinds.map((kind) =>
    summarize(
      kind.label,
      of(kind).map((sample) => mebibytes(sample.idleRssBytes)),
    ),
  );
  const [cliStart, bareStart] = startRows;
  const [cliMemory, bareMemory] = memoryRows;
  return [
    {
      name: `${name}/cold-start`,
      unit: "ms",
      rows: startRows,
      ratios: {
        "host / bare (median)": ratio(cliStart?.median ?? NaN, bareStart?.median ?? NaN),
      },
      notes: [
        "Spawn to the first 200 from /healthz; printedMedianMs is spawn to the printed URL. Goal: host / bare at most 2.",
        `Each start uses a new data folder (new SQLite file, new session key)${options.quick ? "" : "; one unmeasured start of each comes first, so the disk cache is warm for both"}.`,
      ],
    },
    {
      name: `${name}/idle-rss`,
      unit: "MiB",
      rows: memoryRows,
      ratios: {
        "host / bare (median)": ratio(cliMemory?.median ?? NaN, bareMemory?.median ?? NaN),
      },
      notes: [
        `VmRSS of the process ${idleMs / 1000} s after /healthz first answered, no one signed in. Goal: the host's median at most 100 MiB.`,
      ],
    },
  ];
}
