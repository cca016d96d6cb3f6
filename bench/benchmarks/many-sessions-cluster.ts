// Benchmark 7, many sessions on a cluster: the many-sessions load (each session its own person,
// one open card, one `card:call-tool` a second) on one node versus two nodes, both behind the
// suite's balancer, in the same run. Both use the same real PostgreSQL (a fresh database per side)
// and Redis, so the comparison is one node against two, not SQLite against Postgres. Each node is
// the program under test (the published bundle with --database, --redis, --node-id,
// --public-origin, a shared SESSION_SECRET and the trusted header). Reports p50/p99, errors, and
// each node's CPU and peak RSS and how many sessions it held.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  freePort,
  startBalancer,
  startPostgres,
  startRedis,
  type RunningBalancer,
} from "@mcp-chat-host/testing";
import { benchAppServer, TICK_TOOL } from "../fixtures/bench-app";
import {
  BenchFailure,
  type BenchOptions,
  type BenchResult,
  type BenchRow,
} from "../lib/bench-result";
import { runSlice } from "../lib/open-loop";
import { temporaryDirectory } from "../lib/paths";
import { startProgram, type RunningProgram } from "../lib/program";
import { cpuMilliseconds, mebibytes, residentBytes } from "../lib/process-stats";
import { ratio, summarize } from "../lib/stats";
import { isTick, openSessions } from "./many-sessions";

/** The benchmark's name (the runner's `--only` value). */
export const name = "many-sessions-cluster";

/** A call still unanswered after this long counts as an error ("timeout"). */
const CALL_TIMEOUT_MS = 10_000;

interface Plan {
  sizes: number[];
  /** Seconds of calls per side. */
  seconds: number;
}

const FULL: Plan = { sizes: [100, 400], seconds: 30 };
const QUICK: Plan = { sizes: [4], seconds: 2 };

/** A node of the cluster: the program, its id and the port it listens on. */
interface ClusterMember {
  program: RunningProgram;
  nodeId: string;
  port: number;
}

/** Starts one node: the program with the bench app, on the shared store and Redis. */
async function startNode(options: {
  nodeId: string;
  store: string;
  redis: string;
  publicOrigin: string;
  sessionSecret: string;
  data: string;
}): Promise<ClusterMember> {
  // Owner only, as the program keeps its data folder (it would tighten the modes and warn).
  mkdirSync(options.data, { recursive: true, mode: 0o700 });
  const app = await benchAppServer(options.data);
  // Its own port, known before it starts: behind the balancer it prints the balancer's origin.
  const port = await freePort();
  const program = await startProgram({
    data: options.data,
    headerUsers: true,
    port,
    database: options.store,
    redis: options.redis,
    nodeId: options.nodeId,
    publicOrigin: options.publicOrigin,
    sessionSecret: options.sessionSecret,
    config: {
      mcpServers: { bench: app.entry },
      host: { pageCalls: { perSecond: 1_000, burst: 1_000 } },
    },
  });
  return { program, nodeId: options.nodeId, port };
}

/**
 * Measures `count` sessions through the balancer on `nodeCount` nodes.
 *
 * @returns the row of this side.
 */
async function measureSide(
  nodeCount: number,
  count: number,
  plan: Plan,
  services: { createDatabase(name: string): Promise<string>; redis: string },
): Promise<BenchRow> {
  const data = temporaryDirectory("mch-bench-cluster-");
  const store = await services.createDatabase(`bench_${nodeCount}_nodes_${count}_${process.pid}`);
  const nodes: ClusterMember[] = [];
  let balancer: RunningBalancer | undefined;
  const clients: { client: { close(): void } }[] = [];
  try {
    // The balancer's port is known before the nodes start, so they accept its origin.
    const names = Array.from({ length: nodeCount }, (_, index) => String.fromCharCode(97 + index));
    const port = await freePort();
    const publicOrigin = `http://127.0.0.1:${port}`;
    const sessionSecret = randomBytes(32).toString("base64url");
    // Started together; each is pushed as soon as it runs, so a failed start stops the others.
    await Promise.all(
      names.map(async (nodeId) => {
        const node = await startNode({
          nodeId,
          store,
          redis: services.redis,
          publicOrigin,
          sessionSecret,
          data: join(data, nodeId),
        });
        nodes.push(node);
      }),
    );
    nodes.sort((left, right) => names.indexOf(left.nodeId) - names.indexOf(right.nodeId));
    balancer = await startBalancer({
      port,
      backends: nodes.map((node, index) => ({ name: names[index] ?? "", port: node.port })),
    });
    clients.push(...(await openSessions(balancer.url, 1, `warm-up-${nodeCount}`)));
    const sessions = await openSessions(balancer.url, count, `person-${nodeCount}`);
    clients.push(...sessions);
    const held = balancer.connections();

    const latencies: number[] = [];
    const errors = new Map<string, number>();
    const failed = (kind: string) => errors.set(kind, (errors.get(kind) ?? 0) + 1);
    const call = async (index: number) => {
      const session = sessions[index];
      if (session === undefined) return;
      const begin = performance.now();
      try {
        const ack = await session.client.request(
          "card:call-tool",
          { instanceId: session.instanceId, name: TICK_TOOL, arguments: {} },
          CALL_TIMEOUT_MS,
        );
        if (!ack.ok) failed(ack.error.code);
        else if (!isTick(ack.value)) failed("unexpected-result");
        else latencies.push(performance.now() - begin);
      } catch {
        failed("timeout");
      }
    };
    const cpuBefore = nodes.map((node) => cpuMilliseconds(node.program.pid));
    const peakRss = nodes.map((node) => residentBytes(node.program.pid));
    const sample = () =>
      nodes.forEach((node, index) => {
        if (node.program.process.child.exitCode === null) {
          peakRss[index] = Math.max(peakRss[index] ?? 0, residentBytes(node.program.pid));
        }
      });
    const sampler = setInterval(sample, 1_000);
    const wallBefore = performance.now();
    try {
      await runSlice(count, plan.seconds * 1_000, call);
    } finally {
      clearInterval(sampler);
    }
    sample();
    const wallMs = performance.now() - wallBefore;
    const errorCount = [...errors.values()].reduce((sum, value) => sum + value, 0);
    const perNode: Record<string, number> = {};
    nodes.forEach((node, index) => {
      const nodeName = names[index] ?? String(index);
      perNode[`node ${nodeName} CPU %`] =
        (100 * (cpuMilliseconds(node.program.pid) - (cpuBefore[index] ?? 0))) / wallMs;
      perNode[`node ${nodeName} peak RSS MiB`] = mebibytes(peakRss[index] ?? 0);
      // The sessions' sockets (plus the warm-up's) each node held, as the balancer counted them.
      perNode[`node ${nodeName} sockets`] = held[nodeName] ?? 0;
    });
    return summarize(
      `${nodeCount === 1 ? "one node" : `${nodeCount} nodes`} behind the balancer, ${count} sessions`,
      latencies,
      {
        calls: latencies.length + errorCount,
        errors: errorCount,
        errorKinds: [...errors].map(([kind, value]) => `${kind}:${value}`).join(",") || "none",
        ...perNode,
      },
    );
  } finally {
    for (const session of clients) session.client.close();
    await balancer?.close();
    for (const node of nodes) await node.program.stop(10_000);
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * Runs the benchmark: one node, then two, at each size (full: 100 and 400 sessions for 30 s
 * each; quick: 4 sessions for 2 s), on one PostgreSQL and one Redis started for the run.
 *
 * @returns one result per size, with the one-node and two-node rows.
 * @throws {BenchFailure} when a size could not be measured; it carries the sizes that were.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const plan = options.quick ? QUICK : FULL;
  // Durable at full size, as an operator runs it (every commit reaches the disk); the quick run
  // only proves the harness works, so it spares the disk.
  const postgres = await startPostgres({ durable: !options.quick });
  const redis = await startRedis();
  const results: BenchResult[] = [];
  const failures: string[] = [];
  try {
    const services = {
      createDatabase: (database: string) => postgres.createDatabase(database),
      redis: redis.url,
    };
    for (const count of plan.sizes) {
      try {
        const one = await measureSide(1, count, plan, services);
        const two = await measureSide(2, count, plan, services);
        results.push({
          name: `${name}/${count}`,
          unit: "ms",
          rows: [one, two],
          ratios: {
            "two nodes / one node (median)": ratio(two.median, one.median),
            "two nodes / one node (p99)": ratio(two.p99, one.p99),
          },
          notes: [
            `${count} sessions (plus one warm-up), one card each, one card:call-tool per session per second for ${plan.seconds} s per side; p50/p99 are of answered calls.`,
            `Both sides run behind the suite's balancer (fewest connections first) on one PostgreSQL (${options.quick ? "commits not flushed to disk in the quick run" : "durable commits"}, a fresh database per side) and one Redis, all on this machine's loopback; the clients run in the benchmark's process and share the cores with the nodes.`,
            "Each node is the program under test (node packages/mcp-chat-host/dist/cli.js) with the bench app as its stdio MCP server; CPU % is the node's CPU time over the side's wall time (not counting the app's process); peak RSS is sampled each second.",
          ],
        });
      } catch (error) {
        failures.push(
          `${count} sessions: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    await redis.stop();
    await postgres.stop();
  }
  if (failures.length > 0) throw new BenchFailure(failures.join("\n"), results);
  return results;
}
