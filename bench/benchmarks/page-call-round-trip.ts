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
//   it crosses the same process boundary the browser's call does;
// - the socket.io floor: an acknowledgement echo on a plain socket.io server in this process (no
//   host), which with the in-process call is the floor of the server path;
// - the browser floor: a bare cross-site iframe echoing the call's JSON-RPC message through its
//   parent page, no server (fixtures/bare-echo.ts).
import {
  BenchFailure,
  type BenchOptions,
  type BenchResult,
  type BenchRow,
} from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { ConsoleMarks, launchChromium } from "../lib/browser";
import { ECHO_ARGUMENTS, ECHO_TOOL, OPEN_TOOL } from "../fixtures/bench-app";
import { startBenchHost } from "../fixtures/bench-host";
import { benchViewFrame, openHostPage, sendMessage } from "../fixtures/host-page";
import { connectBenchClient, openCardFromNode, signInCookie } from "../fixtures/socket-client";
import { FLOOR_LABELS, startPageCallFloors, timedCalls } from "../fixtures/page-call-floors";

const LABELS = {
  ...FLOOR_LABELS,
  socket: "Node socket.io client (server path)",
  browser: "Chromium view (whole path)",
} as const;

/** The bench view's API, as the page's frame has it. */
interface BenchViewGlobal {
  benchView: {
    callTimes(name: string, count: number, args: Record<string, unknown>): Promise<number[]>;
  };
}

function resultFailed(result: unknown): boolean {
  return (result as { isError?: unknown } | null)?.isError === true;
}

/** Milliseconds rounded to the microsecond. */
function ms(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 3 rounds of 10 calls each; else 20 rounds of 50 (stops after 2 min).
 * @returns one result: the six paths' median, p25/p75 and p99 per call, what each adds over its
 *   floor, ratios.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const batch = options.quick ? 10 : 50;
  const rounds = options.quick ? 3 : 20;
  // The gate's rate limit (20 calls a second per card by default) would otherwise be measured.
  const host = await startBenchHost({ apps: "bench", unthrottled: true });
  let floors: Awaited<ReturnType<typeof startPageCallFloors>> | null = null;
  let browser: Awaited<ReturnType<typeof launchChromium>> | null = null;
  let client: Awaited<ReturnType<typeof connectBenchClient>> | null = null;
  try {
    browser = await launchChromium();
    floors = await startPageCallFloors(browser, batch);
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
      ...floors.subjects,
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
    const floorRow = summarize(LABELS.inProcess, flat(LABELS.inProcess));
    const stdioRow = summarize(LABELS.stdio, flat(LABELS.stdio));
    const echoRow = summarize(LABELS.socketEcho, flat(LABELS.socketEcho));
    const bareRow = summarize(LABELS.bareEcho, flat(LABELS.bareEcho));
    const socket = summarize(LABELS.socket, flat(LABELS.socket));
    const whole = summarize(LABELS.browser, flat(LABELS.browser));
    const added = (row: BenchRow) => ({
      "added median ms": ms(row.median - floorRow.median),
      "added p99 ms": ms(row.p99 - floorRow.p99),
    });
    stdioRow.extra = added(stdioRow);
    // The server floor: socket.io's own round trip plus the call on the in-process client.
    const serverFloor = echoRow.median + floorRow.median;
    echoRow.extra = { "server floor median ms (echo + in-process)": ms(serverFloor) };
    // What the host adds on top of the app's own process boundary.
    socket.extra = {
      ...added(socket),
      "echo calls counted by /metrics": counted,
      "over stdio median ms": ms(socket.median - stdioRow.median),
      "over server floor median ms": ms(socket.median - serverFloor),
    };
    // What the browser adds on top of the server path (proxy, bridge, postMessage, the page's
    // socket), and on top of the two floors a view's call cannot avoid.
    whole.extra = {
      ...added(whole),
      "over socket.io median ms": ms(whole.median - socket.median),
      "over bare echo + server path median ms": ms(whole.median - bareRow.median - socket.median),
    };
    return [
      {
        name: "page-call-round-trip",
        unit: "ms",
        rows: [floorRow, stdioRow, echoRow, socket, bareRow, whole],
        ratios: {
          "socket.io / server floor (median)": ratio(socket.median, serverFloor),
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
          "The socket.io echo is a plain socket.io server and client in the benchmark's process (no host, no process boundary), acknowledging the card:call-tool payload with { ok: true, value: payload }; with the in-process call it is the server floor.",
          "The bare echo is a page on 127.0.0.1 holding a sandboxed iframe on bare-echo-view.localhost (another site, so another renderer process): the view posts the echo's tools/call JSON-RPC request to its parent and the parent posts the JSON-RPC result back; timed in the view. No proxy, bridge, SDK or server: the floor of any sandboxed view.",
          "The Chromium figures are timed in the frames (performance.now()); the others in Node.",
        ],
      },
    ];
  } finally {
    client?.close();
    await floors?.close();
    await browser?.close();
    await host.close();
  }
}
