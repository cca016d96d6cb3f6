// Benchmark 5: the first card. From the model's tool result (the bench app's tool handler
// returning, timed in the app's own process) to the view's `initialized` (timed in the view, in
// Chromium), through the whole host: card record committed, `card:opened`, the React card,
// `card:attach` (the page read from the source again), the AppBridge, the sandbox proxy page on its
// own origin, the view in its inner frame. The host is the program under test (bench-host.ts) and
// the bench app its stdio MCP server, each a process of its own. The baseline, in the same run and
// interleaved: the same view HTML loaded into a bare sandboxed iframe with an AppBridge, no proxy,
// socket or server (bare-page/main.ts).
import type { Page } from "playwright-core";
import type { BenchOptions, BenchResult } from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { ConsoleMarks, launchChromium, pageClockOffset } from "../lib/browser";
import { OPEN_TOOL, benchViewHtml } from "../fixtures/bench-app";
import { startBarePageServer } from "../fixtures/bare-page-server";
import { startBenchHost } from "../fixtures/bench-host";
import { closeCard, openHostPage, sendMessage } from "../fixtures/host-page";

const LABELS = {
  bare: "bare iframe + AppBridge (baseline)",
  host: "host: tool result → view initialized",
} as const;

/** The baseline page's API. */
interface BarePageGlobal {
  barePage: {
    open(
      html: string,
      views: { toolInput: Record<string, unknown>; toolResult: Record<string, unknown> }[],
    ): Promise<{ startedAt: number; allInitializedAt: number }>;
    clear(): Promise<void>;
  };
}

const VIEW_WAIT_MS = 30_000;

async function lastCardId(page: Page): Promise<string> {
  const id = await page.locator('[data-testid="card"]').last().getAttribute("data-instance-id");
  if (id === null) throw new Error("The newest card has no data-instance-id.");
  return id;
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 3 measured cards each (after 1 warm-up); else 30 (after 3), stopping
 *   after 3 minutes.
 * @returns one result: median and p99 of both, the ratio and the added milliseconds.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const host = await startBenchHost({ apps: "bench" });
  const bare = await startBarePageServer();
  const browser = await launchChromium().catch(async (error: unknown) => {
    await Promise.all([bare.close(), host.close()]);
    throw error;
  });
  try {
    const html = await benchViewHtml();
    const { page } = await openHostPage(browser, await host.signInUrl());
    const hostMarks = new ConsoleMarks(page, "mch-bench");
    const barePage = await (await browser.newContext()).newPage();
    await barePage.goto(bare.url);
    const bareMarks = new ConsoleMarks(barePage, "mch-bench");
    const clockBefore = await pageClockOffset(page);
    let runs = 0;

    const subjects: Subject<number>[] = [
      {
        label: LABELS.host,
        async run() {
          const run = `host-${(runs += 1)}`;
          await page.bringToFront();
          await sendMessage(page, `/call ${OPEN_TOOL} ${JSON.stringify({ run })}`);
          const initializedAt = Number(await hostMarks.next(run, VIEW_WAIT_MS));
          // The app wrote the line before it returned the result, so it is in the file by now.
          const resultAt = host.runTimes().get(run);
          if (resultAt === undefined) throw new Error(`The tool of run ${run} never returned.`);
          // The card is closed again so every sample starts from a page with no live card.
          await closeCard(page, await lastCardId(page));
          // Both times on this process's clock: the page's aligned; the app's process reads the
          // same system clock as this one (epoch ms from performance.timeOrigin).
          return initializedAt - clockBefore.offsetMs - resultAt;
        },
      },
      {
        label: LABELS.bare,
        async run() {
          const run = `bare-${(runs += 1)}`;
          await barePage.bringToFront();
          const { startedAt } = await barePage.evaluate(
            ([viewHtml, name]) =>
              (globalThis as unknown as BarePageGlobal).barePage.open(viewHtml, [
                {
                  toolInput: { run: name },
                  toolResult: {
                    content: [{ type: "text", text: `The bench view is open (${name}).` }],
                    structuredContent: { run: name },
                  },
                },
              ]),
            [html, run] as const,
          );
          const initializedAt = Number(await bareMarks.next(run, VIEW_WAIT_MS));
          await barePage.evaluate(() => (globalThis as unknown as BarePageGlobal).barePage.clear());
          return initializedAt - startedAt;
        },
      },
    ];
    const samples = await interleave(subjects, {
      warmup: options.quick ? 1 : 3,
      iterations: options.quick ? 3 : 30,
      maxMs: options.quick ? 30_000 : 180_000,
    });
    const clockAfter = await pageClockOffset(page);
    const hostRow = summarize(LABELS.host, samples.get(LABELS.host) ?? []);
    const bareRow = summarize(LABELS.bare, samples.get(LABELS.bare) ?? []);
    hostRow.extra = {
      "added median ms": Math.round((hostRow.median - bareRow.median) * 10) / 10,
      "added p99 ms": Math.round((hostRow.p99 - bareRow.p99) * 10) / 10,
    };
    const drift = Math.abs(clockAfter.offsetMs - clockBefore.offsetMs);
    const uncertainty = Math.max(clockBefore.uncertaintyMs, clockAfter.uncertaintyMs) + drift;
    return [
      {
        name: "first-card",
        unit: "ms",
        rows: [bareRow, hostRow],
        ratios: {
          "host / bare (median)": ratio(hostRow.median, bareRow.median),
          "host / bare (p99)": ratio(hostRow.p99, bareRow.p99),
        },
        notes: [
          "The view is the benchmarks' own (bench/fixtures/bench-view): an ext-apps App and one line of text, so the figures are the host's and the browser's, not a view's.",
          "The host is the program under test (node packages/mcp-chat-host/dist/cli.js with a config file) in a child process of its own, so the Playwright driver's work is not on the server's event loop; the bench app is its stdio MCP server (bench/fixtures/bench-app).",
          "Host: from the tool handler returning (the app's process appends the time, epoch ms from performance.timeOrigin, to a file before it returns) to the view's `initialized` (view clock, right after app.connect() resolves); the view's clock is aligned NTP-style against the benchmark's " +
            `(uncertainty about ±${uncertainty.toFixed(2)} ms), the app's process reads the same system clock as the benchmark (each Node process converts its monotonic clock to epoch time once at start, so they can differ by about a millisecond). The host opens the card when the tool call starts, so part of the mounting overlaps the call.`,
          "Bare: from the baseline page starting to load the same HTML to the same moment in the view.",
          "Each host sample starts from a page whose earlier cards are closed; each bare sample from an empty page.",
        ],
      },
    ];
  } finally {
    await browser.close();
    await bare.close();
    await host.close();
  }
}
