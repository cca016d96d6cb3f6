// Benchmark 4: a saved conversation with 200 cards (Notes, an example app; also 50, and 5 in quick
// mode) reopened in Chromium. The page keeps at most 12 card views live (the default of
// `host.liveViews`), those near the visible part of the list; the others show a light stand-in.
// Measured from the page's navigation start: when the first view said `initialized` (the card's
// `data-status` becomes `ready`, seen by a MutationObserver in the page), and when every card in
// the visible part of the list was live and ready; the most card frames the page held at once;
// and the tool calls the host made meanwhile (its /metrics), which must be none: a restore re-reads
// each page and hands it the saved input and result. The conversation is written straight into
// the SQLite store before the host (the program under test, with its example apps) starts. Then, in a browser of its own, the tab's memory once every card
// settled (fixtures/tab-memory.ts). Baseline, interleaved in the same run: the same number of
// Notes views loaded at once into bare sandboxed iframes with an AppBridge each (no proxy, no
// socket, no cap), which is what every view live at once costs.
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { notesApp } from "@mcp-chat-host/server/examples";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { launchChromium } from "../lib/browser";
import { mebibytes } from "../lib/process-stats";
import { startBarePageServer, type BarePageServer } from "../fixtures/bare-page-server";
import {
  startBenchHost,
  storeSpec,
  temporaryDataDirectory,
  totalCalls,
} from "../fixtures/bench-host";
import type { RestoreProgress } from "../fixtures/restore-watch";
import {
  bareTabMemory,
  hostTabMemory,
  reopen,
  signedInContext,
  type BarePageGlobal,
  type BareViews,
} from "../fixtures/restore-tab";
import { writeSavedConversation } from "../fixtures/saved-conversation";
import type { TabMemory } from "../fixtures/tab-memory";

const LABELS = {
  bare: "bare iframes + AppBridge, every view (baseline)",
  host: "host: reopen → the cards in view live",
  bareMemory: "bare iframes + AppBridge, every view (baseline)",
  hostMemory: "host: reopened, settled",
} as const;

/** The Notes page as the host serves it, read once from the app, for the baseline. */
async function notesPage(): Promise<string> {
  const notes = notesApp();
  const source = await notes.source();
  try {
    const resource = await source.readResource(notes.resourceUri);
    const html = (resource.contents[0] as { text?: unknown } | undefined)?.text;
    if (typeof html !== "string") throw new Error("The Notes app gave no page.");
    return html;
  } finally {
    await source.close();
  }
}

function memoryRow(label: string, memory: TabMemory, extra: Record<string, number>) {
  const megabytes = Math.round(mebibytes(memory.renderersBytes));
  return {
    label,
    median: megabytes,
    p99: megabytes,
    n: 1,
    extra: {
      ...extra,
      "renderer processes": memory.renderers,
      "main frame JS heap MB": Math.round(mebibytes(memory.mainHeapBytes) * 10) / 10,
    },
  };
}

/**
 * Measures one size: writes the conversation, starts the host on it, reopens it in new tabs,
 * interleaved with the baseline; then each tab's memory in a browser of its own.
 *
 * @throws {BenchFailure} when a reopen calls a tool, or the cards in view do not go live in time.
 */
async function measure(
  cards: number,
  html: string,
  rounds: { warmup: number; iterations: number; maxMs: number; timeoutMs: number },
): Promise<BenchResult[]> {
  const dataDirectory = temporaryDataDirectory();
  const saved = await writeSavedConversation(storeSpec(dataDirectory), { cards });
  // The program in a child process of its own, so the Playwright driver's work is not on the
  // server's event loop (as for page-call-round-trip and first-card).
  const host = await startBenchHost({ apps: "examples", dataDirectory }).catch((error: unknown) => {
    rmSync(dataDirectory, { recursive: true, force: true });
    throw error;
  });
  let bare: BarePageServer | null = null;
  let browser: Browser | null = null;
  try {
    bare = await startBarePageServer();
    browser = await launchChromium();
    const context = await signedInContext(browser, host);
    const conversationUrl = `${host.origin}/#/c/${encodeURIComponent(saved.conversationId)}`;
    const barePage = await (await browser.newContext()).newPage();
    await barePage.goto(bare.url);
    const views: BareViews = saved.instanceIds.map((instanceId) => {
      const text = saved.texts.get(instanceId) ?? "";
      return {
        toolInput: { text },
        toolResult: {
          content: [{ type: "text", text: "The notes are open (4 words)." }],
          structuredContent: { text, words: 4, saved: false },
        },
      };
    });
    const reopens: RestoreProgress[] = [];
    const subjects: Subject<number>[] = [
      {
        label: LABELS.host,
        async run() {
          const { page, progress } = await reopen(context, conversationUrl, rounds.timeoutMs);
          await page.close();
          reopens.push(progress);
          return progress.inViewReadyAt ?? Number.NaN;
        },
      },
      {
        label: LABELS.bare,
        async run() {
          await barePage.bringToFront();
          const timing = await barePage.evaluate(
            ([viewHtml, all]) =>
              (globalThis as unknown as BarePageGlobal).barePage.open(viewHtml, all),
            [html, views] as const,
          );
          await barePage.evaluate(() => (globalThis as unknown as BarePageGlobal).barePage.clear());
          return timing.allInitializedAt - timing.startedAt;
        },
      },
    ];
    const samples = await interleave(subjects, rounds);
    await browser.close();
    browser = null;
    const hostMemory = await hostTabMemory(host, conversationUrl, rounds.timeoutMs);
    const bareMemory = await bareTabMemory(bare, html, views);
    const counts = await host.toolCalls();
    const toolCalls = totalCalls(counts);
    if (toolCalls !== 0) {
      throw new BenchFailure(
        `Reopening the conversation called tools (${JSON.stringify(counts)}); a restore must call none.`,
      );
    }
    // The warm-up's reopens are dropped with it.
    const measured = reopens.slice(-(samples.get(LABELS.host)?.length ?? 0));
    const failed = Math.max(0, ...measured.map((progress) => progress.failed));
    const firstError = measured.find((progress) => progress.firstError !== null)?.firstError;
    const medianOf = (values: number[]) => Math.round(summarize("", values).median);
    const firstView = summarize(
      "",
      measured.map((progress) => progress.firstReadyAt ?? Number.NaN),
    );
    const hostRow = summarize(LABELS.host, samples.get(LABELS.host) ?? [], {
      cards,
      "tool calls": toolCalls,
      "first view ms (median)": Math.round(firstView.median),
      "first view ms p25": Math.round(firstView.p25 ?? Number.NaN),
      "first view ms p75": Math.round(firstView.p75 ?? Number.NaN),
      "cards in view": medianOf(measured.map((progress) => progress.inViewCards)),
      "most live frames": Math.max(0, ...measured.map((progress) => progress.framesMost)),
      "views failed (most in one reopen)": failed,
    });
    const bareRow = summarize(LABELS.bare, samples.get(LABELS.bare) ?? [], {
      cards,
      "live frames": cards,
    });
    const notes = [
      `A saved conversation of ${cards} Notes cards (an example app, a ${Math.round(html.length / 1024)} kB single-file view), written into the SQLite store before the host started.`,
      "Host: from the chat page's navigation start (a new tab on #/c/<id>, signed in) to every card in the visible part of the message list having its view initialised; this includes loading the web app, the socket, the snapshot, the scroll to the end, one `card:attach` per live card (each page read again from the app and sent whole) and the sandbox proxies. At most 12 views are live (the default cap); the others are stand-ins.",
      "Bare: every view, with its input and result, loaded at once into bare sandboxed iframes with an AppBridge each, from an already open page (no cap: what the page did before the cap, without the host's own costs).",
      "The host is the program under test (node packages/mcp-chat-host/dist/cli.js, its example apps on) in a child process of its own, so the Playwright driver's work is not on the server's event loop.",
      `Tool calls the host made during every reopen (mcp_chat_host_tool_calls_total on its /metrics): ${toolCalls} (must be 0).`,
    ];
    if (failed > 0) {
      notes.push(
        `PROBLEM: in a reopen, ${failed} of the live cards failed instead of initialising ("${firstError ?? "unknown"}").`,
      );
    }
    const memoryNotes = [
      "The PSS of every renderer process of a browser holding only the tab, after a full garbage collection of the main frame: the chat page and the views (which run in their sandbox origin's processes).",
      `Host: reopened, then every live card settled (${hostMemory.frames} live frames then; at most ${hostMemory.framesMost} at once). Bare: all ${cards} views loaded.`,
    ];
    return [
      {
        name: `restore/${cards}`,
        unit: "ms",
        rows: [bareRow, hostRow],
        ratios: { "host / bare (median)": ratio(hostRow.median, bareRow.median) },
        notes,
      },
      {
        name: `restore-memory/${cards}`,
        unit: "MB",
        rows: [
          memoryRow(LABELS.bareMemory, bareMemory, { cards, "live frames": bareMemory.frames }),
          memoryRow(LABELS.hostMemory, hostMemory, { cards, "live frames": hostMemory.frames }),
        ],
        ratios: {
          "host / bare": ratio(hostMemory.renderersBytes, bareMemory.renderersBytes),
        },
        notes: memoryNotes,
      },
    ];
  } finally {
    await browser?.close();
    await bare?.close();
    await host.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 5 cards, 1 reopen; else 50 cards, then 200 cards, 3 reopens each
 *   after 1 warm-up (stopping after 5 minutes per size).
 * @returns per size: the time until the cards in view are live (host) or every view initialised
 *   (baseline), and each tab's memory.
 * @throws {BenchFailure} when a reopen calls a tool, or the cards in view do not go live in time.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const html = await notesPage();
  if (options.quick) {
    return measure(5, html, { warmup: 0, iterations: 1, maxMs: 60_000, timeoutMs: 60_000 });
  }
  const results: BenchResult[] = [];
  for (const cards of [50, 200]) {
    results.push(
      ...(await measure(cards, html, {
        warmup: 1,
        iterations: 3,
        maxMs: 300_000,
        timeoutMs: 240_000,
      })),
    );
  }
  return results;
}
