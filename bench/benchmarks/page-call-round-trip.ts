// Benchmark 1: a view's `tools/call`, through the whole path, in Chromium: view → sandbox proxy →
// AppBridge → socket.io → the gate (card check, visibility, annotation policy, audit in SQLite) →
// the bench app, a stdio MCP server → back. Timed inside the view with `performance.now()` around
// `app.callServerTool`. The host is the program under test (the published bundle, in a child
// process of its own: bench-host.ts), so the Playwright driver's work (every protocol event of the
// browser comes to this process) is not on the server's event loop. Baselines, interleaved with it:
// - the floor: the same call on an MCP client joined to the same app server in this process;
// - the floor with the app's process: the same call on an MCP client in this process to the app
//   started over stdio, as the host starts it, with no host in between;
// - the server path without the browser: `card:call-tool` from a Node socket.io client in this
//   process, on a card of its own session of the same host (same gate, same audit, same app), so
//   it crosses the same process boundary the browser's call does.
import { rmSync } from "node:fs";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { ConsoleMarks, launchChromium } from "../lib/browser";
import { temporaryDirectory } from "../lib/paths";
import {
  ECHO_ARGUMENTS,
  ECHO_TOOL,
  OPEN_TOOL,
  inProcessBenchApp,
  stdioBenchApp,
} from "../fixtures/bench-app";
import { startBenchHost } from "../fixtures/bench-host";
import { benchViewFrame, openHostPage, sendMessage } from "../fixtures/host-page";
import { connectBenchClient, openCardFromNode, signInCookie } from "../fixtures/socket-client";

const LABELS = {
  floor: "in-process MCP client (floor)",
  stdio: "MCP client to the app over stdio, no host (floor with the app's process)",
  socket: "Node socket.io client (server path)",
  browser: "Chromium view (whole path)",
} as const;

/** The bench view's API, as the page's frame has it. */
interface BenchViewGlobal {
  benchView: {
    callTimes(name: string, count: number, args: Record<string, unknown>): Promise<number[]>;
  };
}

async function timedCalls(count: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

function resultFailed(result: unknown): boolean {
  return (result as { isError?: unknown } | null)?.isError === true;
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 3 rounds of 10 calls each; else 20 rounds of 50 (stops after 2 min).
 * @returns one result: the four paths' median and p99 per call, added ms over the floor, ratios.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const batch = options.quick ? 10 : 50;
  const rounds = options.quick ? 3 : 20;
  // The gate's rate limit (20 calls a second per card by default) would otherwise be measured.
  const host = await startBenchHost({ apps: "bench", unthrottled: true });
  const floorFolder = temporaryDirectory("mch-bench-floor-");
  let inProcess: Awaited<ReturnType<typeof inProcessBenchApp>> | null = null;
  let stdioFloor: Awaited<ReturnType<typeof stdioBenchApp>> | null = null;
  let browser: Awaited<ReturnType<typeof launchChromium>> | null = null;
  let client: Awaited<ReturnType<typeof connectBenchClient>> | null = null;
  try {
    inProcess = await inProcessBenchApp();
    const floor = inProcess;
    stdioFloor = await stdioBenchApp(floorFolder);
    const stdio = stdioFloor;
    browser = await launchChromium();
    const { page } = await openHostPage(browser, await host.signInUrl());
    const marks = new ConsoleMarks(page, "mch-bench");
    await sendMessage(page, `/call ${OPEN_TOOL} ${JSON.stringify({ run: "calls" })}`);
    await marks.next("calls", 30_000);
    marks.stop();
    const frame = await benchViewFrame(page);

    client = await connectBenchClient(host.origin, await signInCookie(await host.signInUrl()));
    const nodeClient = client;
    const card = await openCardFromNode(nodeClient, OPEN_TOOL, { run: "node" });

    const subjects: Subject<number[]>[] = [
      {
        label: LABELS.floor,
        run: () =>
          timedCalls(batch, async () => {
            const result = await floor.client.callTool({
              name: ECHO_TOOL,
              arguments: ECHO_ARGUMENTS,
            });
            if (resultFailed(result)) throw new Error("The in-process call failed.");
          }),
      },
      {
        label: LABELS.stdio,
        run: () =>
          timedCalls(batch, async () => {
            const result = await stdio.client.callTool({
              name: ECHO_TOOL,
              arguments: ECHO_ARGUMENTS,
            });
            if (resultFailed(result)) throw new Error("The stdio call failed.");
          }),
      },
      {
        label: LABELS.socket,
        run: () =>
          timedCalls(batch, async () => {
            const result = await nodeClient.value("card:call-tool", {
              instanceId: card.instanceId,
              name: ECHO_TOOL,
              arguments: ECHO_ARGUMENTS,
            });
            if (resultFailed(result)) throw new Error("The socket.io call failed.");
          }),
      },
      {
        label: LABELS.browser,
        run: () =>
          frame.evaluate(
            ([name, count, args]) =>
              (globalThis as unknown as BenchViewGlobal).benchView.callTimes(name, count, args),
            [ECHO_TOOL, batch, ECHO_ARGUMENTS] as const,
          ),
      },
    ];
    const samples = await interleave(subjects, {
      warmup: options.quick ? 1 : 2,
      iterations: rounds,
      maxMs: options.quick ? 20_000 : 120_000,
    });
    // The program's /metrics must have counted every page call of both host paths (warm-up
    // included): the restores' proof that a reopen called nothing reads the same counter.
    const hostCalls =
      batch *
      ((samples.get(LABELS.socket)?.length ?? 0) + (samples.get(LABELS.browser)?.length ?? 0));
    const counted = (await host.toolCalls())[`bench/${ECHO_TOOL}`] ?? 0;
    if (counted < hostCalls) {
      throw new BenchFailure(
        `The program's /metrics counted ${counted} calls of ${ECHO_TOOL}, fewer than the ${hostCalls} measured; its tool-call counter cannot prove that a restore calls nothing.`,
      );
    }
    const flat = (label: string) => (samples.get(label) ?? []).flat();
    const floorRow = summarize(LABELS.floor, flat(LABELS.floor));
    const stdioRow = summarize(LABELS.stdio, flat(LABELS.stdio));
    const socket = summarize(LABELS.socket, flat(LABELS.socket));
    const whole = summarize(LABELS.browser, flat(LABELS.browser));
    const added = (row: typeof floorRow) => ({
      "added median ms": Math.round((row.median - floorRow.median) * 1000) / 1000,
      "added p99 ms": Math.round((row.p99 - floorRow.p99) * 1000) / 1000,
    });
    stdioRow.extra = added(stdioRow);
    // What the host adds on top of the app's own process boundary.
    socket.extra = {
      ...added(socket),
      "echo calls counted by /metrics": counted,
      "over stdio median ms": Math.round((socket.median - stdioRow.median) * 1000) / 1000,
    };
    // What the browser adds on top of the server path (proxy, bridge, postMessage, the page's socket).
    whole.extra = {
      ...added(whole),
      "over socket.io median ms": Math.round((whole.median - socket.median) * 1000) / 1000,
    };
    return [
      {
        name: "page-call-round-trip",
        unit: "ms",
        rows: [floorRow, stdioRow, socket, whole],
        ratios: {
          "Chromium view / in-process (median)": ratio(whole.median, floorRow.median),
          "socket.io / in-process (median)": ratio(socket.median, floorRow.median),
          "socket.io / stdio (median)": ratio(socket.median, stdioRow.median),
          "Chromium view / socket.io (median)": ratio(whole.median, socket.median),
          "Chromium view / in-process (p99)": ratio(whole.p99, floorRow.p99),
        },
        notes: [
          `One sample is one call; calls run one after another, ${batch} per subject per round, the subjects interleaved round by round.`,
          'Every path calls the app-only, read-only `echo` tool of the bench app (bench/fixtures/bench-app/app-server.mjs, an MCP server on the official SDK) with { text: "ping" }: in this process for the floor, over stdio (its own process) for the others.',
          "The host is the program under test (node packages/mcp-chat-host/dist/cli.js with a config file) in a child process; the Node clients and the Playwright driver run in the benchmark's process, so both host paths cross a process boundary and the driver's work is not on the server's event loop.",
          "The two host paths pass the whole gate (card, visibility, the default annotation policy) and write the audit row to a SQLite file; the page-call budget is raised (config host.pageCalls) so the limiter is not what is measured.",
          "The Chromium figure is timed in the view (performance.now() around app.callServerTool); the others in Node.",
        ],
      },
    ];
  } finally {
    client?.close();
    await browser?.close();
    await stdioFloor?.close();
    await inProcess?.close();
    await host.close();
    rmSync(floorFolder, { recursive: true, force: true });
  }
}
