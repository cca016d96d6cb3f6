// Benchmark 2, many sessions: N Node socket.io clients, each its own person (the program's
// trusted header) and session with one open card of the bench app, each calling the app's tool
// once a second through `card:call-tool` (gate, the app's stdio MCP server, audit row). Reports
// latency p50/p99, errors, the server's RSS and CPU, and the memory each idle session holds. The
// baseline, interleaved in slices in the same run, makes the same calls at the same rate on an MCP
// client joined to the same app server in this process: the floor. The host is the program under
// test (the published bundle with a config file and flags), so its memory is its own and is read
// from outside (/proc), as an operator would.
import { readdirSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { errorMessage } from "@mcp-chat-host/protocol";
import { benchAppServer, inProcessBenchApp, SHOW_TOOL, TICK_TOOL } from "../fixtures/bench-app";
import { connectBenchClient, type BenchClient } from "../lib/bench-client";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { loopDelayOf, programMemory } from "../lib/program-probes";
import { BENCH_USER_HEADER, startProgram } from "../lib/program";
import { runSlice } from "../lib/open-loop";
import { temporaryDirectory } from "../lib/paths";
import { cpuMilliseconds, mebibytes, openFilesLimit, residentBytes } from "../lib/process-stats";
import { ratio, summarize } from "../lib/stats";

/** The benchmark's name (the runner's `--only` value). */
export const name = "many-sessions";

/** A call still unanswered after this long counts as an error ("timeout"). */
const CALL_TIMEOUT_MS = 10_000;
/** Sessions opened at once while ramping up (each runs a whole turn to open its card). */
const OPEN_CONCURRENCY = 20;

/** The sizes and durations of one run. */
export interface Plan {
  sizes: number[];
  /** Seconds of calls per size for each side (host and baseline). */
  seconds: number;
  /** Length of one slice; host and baseline slices alternate. */
  sliceMs: number;
  /** How long the sessions idle before their memory is read. */
  idleMs: number;
}

const FULL: Plan = { sizes: [100, 500, 1_000], seconds: 60, sliceMs: 10_000, idleMs: 5_000 };
const QUICK: Plan = { sizes: [5], seconds: 2, sliceMs: 1_000, idleMs: 500 };

/** One session of the benchmark: its client and its card. */
interface OpenSession {
  client: BenchClient;
  instanceId: string;
}

/** Latencies of answered calls and counts of failed ones by kind. */
class CallLog {
  readonly latencies: number[] = [];
  readonly errors = new Map<string, number>();
  error(kind: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }
  get errorCount(): number {
    return [...this.errors.values()].reduce((sum, count) => sum + count, 0);
  }
  errorText(): string {
    return [...this.errors].map(([kind, count]) => `${kind}:${count}`).join(",") || "none";
  }
}

/** Whether a `card:call-tool` answer is the bench app's tick result. */
export function isTick(result: unknown): boolean {
  const content = (result as { content?: { text?: unknown }[] } | null)?.content;
  return typeof content?.[0]?.text === "string" && content[0].text.startsWith("tick ");
}

/** Signs a person in, opens the app's card through a whole turn and attaches to it, as a tab does. */
async function openSession(origin: string, person: string): Promise<OpenSession> {
  const client = await connectBenchClient(origin, {
    headers: { [BENCH_USER_HEADER]: person },
    tabId: "tab-1",
    timeoutMs: 30_000,
  });
  try {
    const hello = await client.value("session:hello", {});
    const chatId = hello.chats[0]?.id;
    if (chatId === undefined) throw new Error("The bench session has no chat.");
    const opened = client.next("message:chunk", ({ chunk }) => chunk.type === "data-card", 60_000);
    const replied = client.next(
      "message:updated",
      ({ message }) => message.role === "assistant" && message.status !== "streaming",
      60_000,
    );
    await client.value("message:send", { chatId, text: `/call ${SHOW_TOOL} {}`, clientId: "open" });
    const { chunk } = await opened;
    if (chunk.type !== "data-card") throw new Error("The opening turn sent no card.");
    const card = chunk.card;
    const { message } = await replied;
    if (message.status !== "complete") throw new Error(`The opening turn ended ${message.status}.`);
    await client.value("card:attach", { instanceId: card.instanceId });
    return { client, instanceId: card.instanceId };
  } catch (error) {
    client.close();
    throw error;
  }
}

/** Opens `count` sessions, `OPEN_CONCURRENCY` at a time; on a failure closes them all and throws. */
export async function openSessions(origin: string, count: number, prefix: string) {
  const sessions: OpenSession[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      sessions[index] = await openSession(origin, `${prefix}-${index}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, count) }, worker));
  } catch (error) {
    for (const session of sessions) session?.client.close();
    throw error;
  }
  return sessions;
}

/**
 * Measures one size: starts a bench server, opens `count` sessions, reads their idle memory, then
 * runs host and baseline slices in alternation for `plan.seconds` each. Exported for trying one
 * size by hand.
 *
 * @returns the result for that size.
 * @throws {Error} when the server does not start or a session can't open its card.
 */
export async function measureSize(count: number, plan: Plan): Promise<BenchResult> {
  const data = temporaryDirectory("mch-bench-sessions-");
  const sessions: OpenSession[] = [];
  let server: Awaited<ReturnType<typeof startProgram>> | null = null;
  let app: Awaited<ReturnType<typeof benchAppServer>> | null = null;
  let direct: Awaited<ReturnType<typeof inProcessBenchApp>> | null = null;
  try {
    app = await benchAppServer(data);
    server = await startProgram({
      data,
      headerUsers: true,
      config: {
        mcpServers: { bench: app.entry },
        // The default (20 per second, bursts of 40 per card) is for people; the bench must not be
        // throttled, or it would measure the limiter's refusals.
        host: { pageCalls: { perSecond: 1_000, burst: 1_000 } },
      },
    });
    const program = server;
    const origin = program.origin;
    direct = await inProcessBenchApp();
    const floor = direct;
    // One session first, so code loaded and compiled on first use is not counted per session.
    sessions.push(...(await openSessions(origin, 1, "warm-up")));
    const before = await programMemory(program);
    const rampStarted = performance.now();
    const measured = await openSessions(origin, count, "person");
    const rampSeconds = (performance.now() - rampStarted) / 1_000;
    sessions.push(...measured);
    // Idling is the subject here: the sessions are open and quiet while time passes.
    await delay(plan.idleMs);
    const idle = await programMemory(program);
    const descriptors = readdirSync(`/proc/${program.pid}/fd`).length;

    const hostLog = new CallLog();
    const baselineLog = new CallLog();
    const callHost = async (index: number) => {
      const session = measured[index];
      if (session === undefined) return;
      const begin = performance.now();
      try {
        const ack = await session.client.request(
          "card:call-tool",
          { instanceId: session.instanceId, name: TICK_TOOL, arguments: {} },
          CALL_TIMEOUT_MS,
        );
        if (!ack.ok) hostLog.error(ack.error.code);
        else if (!isTick(ack.value)) hostLog.error("unexpected-result");
        else hostLog.latencies.push(performance.now() - begin);
      } catch {
        hostLog.error("timeout");
      }
    };
    const callDirect = async () => {
      const begin = performance.now();
      try {
        const result = await floor.client.callTool(
          { name: TICK_TOOL, arguments: {} },
          { timeout: CALL_TIMEOUT_MS },
        );
        if (isTick(result)) baselineLog.latencies.push(performance.now() - begin);
        else baselineLog.error("unexpected-result");
      } catch {
        baselineLog.error("failed");
      }
    };

    let peakRss = idle.rss;
    let serverCpuMs = 0;
    let hostWallMs = 0;
    let loopDelayP99 = 0;
    let loopDelayMax = 0;
    // Readings the server was too far behind to answer within 30 s.
    let unansweredReadings = 0;
    const clientCpuBefore = process.cpuUsage();
    const slices = Math.max(1, Math.round((plan.seconds * 1_000) / plan.sliceMs));
    for (let slice = 0; slice < slices; slice += 1) {
      const hostSlice = async () => {
        // Starts the delay reading over; an overloaded server answers only after its backlog from
        // the slice before, so this also keeps one slice's backlog out of the next one's figures.
        await loopDelayOf(program);
        const cpuBefore = cpuMilliseconds(program.pid);
        const wallBefore = performance.now();
        const sampler = setInterval(() => {
          // A server that died mid-slice shows up as errors; the sampler must not throw here.
          if (program.process.child.exitCode === null)
            peakRss = Math.max(peakRss, residentBytes(program.pid));
        }, 1_000);
        try {
          await runSlice(count, plan.sliceMs, callHost);
        } finally {
          clearInterval(sampler);
        }
        peakRss = Math.max(peakRss, residentBytes(program.pid));
        serverCpuMs += cpuMilliseconds(program.pid) - cpuBefore;
        hostWallMs += performance.now() - wallBefore;
        const delayed = await loopDelayOf(program);
        if (delayed === null) unansweredReadings += 1;
        loopDelayP99 = Math.max(loopDelayP99, delayed?.p99 ?? 0);
        loopDelayMax = Math.max(loopDelayMax, delayed?.max ?? 0);
      };
      const baselineSlice = () => runSlice(count, plan.sliceMs, callDirect);
      // Alternate which side goes first, so neither always follows the other.
      if (slice % 2 === 0) {
        await hostSlice();
        await baselineSlice();
      } else {
        await baselineSlice();
        await hostSlice();
      }
    }
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const perSessionKiB = (bytes: number) => bytes / count / 1_024;
    const hostRow = summarize(
      `host: card:call-tool over socket.io, ${count} sessions`,
      hostLog.latencies,
      {
        calls: hostLog.latencies.length + hostLog.errorCount,
        errors: hostLog.errorCount,
        errorKinds: hostLog.errorText(),
        serverLoopDelayP99Ms: loopDelayP99,
        serverLoopDelayMaxMs: loopDelayMax,
        unansweredLoopReadings: unansweredReadings,
        peakRssMiB: mebibytes(peakRss),
        idleRssMiB: mebibytes(idle.rss),
        rssKiBPerIdleSession: perSessionKiB(idle.rss - before.rss),
        heapKiBPerIdleSession:
          idle.heapUsed === null || before.heapUsed === null
            ? Number.NaN
            : perSessionKiB(idle.heapUsed - before.heapUsed),
        serverCpuPercent: hostWallMs > 0 ? (100 * serverCpuMs) / hostWallMs : Number.NaN,
        openFiles: descriptors,
        rampSeconds,
      },
    );
    const baselineRow = summarize(
      "baseline: in-process MCP client, same rate",
      baselineLog.latencies,
      {
        calls: baselineLog.latencies.length + baselineLog.errorCount,
        errors: baselineLog.errorCount,
        errorKinds: baselineLog.errorText(),
      },
    );
    return {
      name: `${name}/${count}`,
      unit: "ms",
      rows: [hostRow, baselineRow],
      ratios: {
        "host / baseline (median)": ratio(hostRow.median, baselineRow.median),
        "host / baseline (p99)": ratio(hostRow.p99, baselineRow.p99),
      },
      notes: [
        `${count} sessions (plus one warm-up), one card each, one call per session per second for ${plan.seconds} s per side, in ${plan.sliceMs / 1_000} s slices alternating with the baseline; host p50/p99 are of answered calls.`,
        "The host is the program under test (node packages/mcp-chat-host/dist/cli.js, --trusted-header for the people, the bench app a stdio MCP server in its config, shared by every session as stdio servers are by default; host.pageCalls raised so the limiter is not measured).",
        `Memory per idle session: the program's RSS (VmRSS of /proc/<pid>/status; a program cannot be asked for a full GC, so it is RSS as it is) and its used heap (nodejs_heap_size_used_bytes of its /metrics, when it serves them), with the sessions open and idle for ${plan.idleMs / 1_000} s, minus the same before they opened, divided by ${count}.`,
        "serverCpuPercent is the program's CPU time (/proc/<pid>/stat) over the host slices' wall time, not counting the app's process; serverLoopDelay* is how late its event loop ran (worst slice, nodejs_eventloop_lag_* of its /metrics, reset at each reading; NaN without metrics): a high delay with low CPU means the server waits synchronously (e.g. on a disk flush).",
        `The clients run in the benchmark's own process on the same machine (their CPU: ${((clientCpu.user + clientCpu.system) / 1_000 / 1_000).toFixed(1)} s over the run), so the host shares the cores with them.`,
      ],
    };
  } finally {
    for (const session of sessions) session.client.close();
    await direct?.close();
    await server?.stop();
    app?.remove();
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * Every session holds one socket in the server and one in this process; the rest (SQLite, the
 * app's pipes) is well under this margin.
 */
function descriptorsNeeded(count: number): number {
  return count + 256;
}

/**
 * Runs the benchmark: 100, 500 and 1,000 sessions for 60 s each (quick: 5 sessions for 2 s).
 *
 * @returns one result per size.
 * @throws {BenchFailure} when the open-files limit (`ulimit -n`, inherited by the server) is too
 *   low for the largest size; raise it in the shell, e.g. `ulimit -n 4096`.
 * @throws {BenchFailure} when a size could not be measured (the server did not start, or a
 *   session could not open its card); it carries the sizes that were.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const plan = options.quick ? QUICK : FULL;
  const limit = openFilesLimit();
  const largest = Math.max(...plan.sizes);
  if (limit !== null && limit < descriptorsNeeded(largest)) {
    throw new BenchFailure(
      `${largest} sessions need about ${descriptorsNeeded(largest)} open files in this process and in the server, but the limit is ${limit}. Raise it in the shell first (ulimit -n ${descriptorsNeeded(largest) * 2}).`,
    );
  }
  const results: BenchResult[] = [];
  const failures: string[] = [];
  // A size that fails (sessions that can't open their cards in time) doesn't hide the others.
  for (const count of plan.sizes) {
    try {
      results.push(await measureSize(count, plan));
    } catch (error) {
      failures.push(`${count} sessions: ${errorMessage(error)}`);
    }
  }
  if (failures.length > 0) throw new BenchFailure(failures.join("\n"), results);
  return results;
}
