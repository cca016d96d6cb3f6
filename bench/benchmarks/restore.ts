// Benchmark 4: a saved conversation with 200 cards (Notes, an example app; also 50, and 5 in quick
// mode) reopened in Chromium.
// Measured from the page's navigation start to the moment the last card's view said
// `initialized` (the card's `data-status` becomes `ready`, seen by a MutationObserver in the page),
// and the tool calls the servers saw meanwhile, which must be none: a restore re-reads each page
// and hands it the saved input and result. The conversation is written straight into the SQLite
// store before the host starts. Baseline, interleaved in the same run: the same number of Notes
// views loaded at once into bare sandboxed iframes with an AppBridge each (no proxy, no socket).
import { rmSync } from "node:fs";
import type { Browser, BrowserContext } from "playwright-core";
import { notesApp } from "@mcp-chat-host/server/examples";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { launchChromium } from "../lib/browser";
import { startBarePageServer, type BarePageServer } from "../fixtures/bare-page-server";
import {
  countedSource,
  startBenchHost,
  storeSpec,
  temporaryDataDirectory,
  totalCalls,
  type ToolCallCounts,
} from "../fixtures/bench-host";
import { writeSavedConversation } from "../fixtures/saved-conversation";

const LABELS = {
  bare: "bare iframes + AppBridge (baseline)",
  host: "host: reopen → every view initialized",
} as const;

/** What the page's observer records (times in ms since the page's navigation start). */
interface RestoreProgress {
  target: number;
  ready: number;
  failed: number;
  firstReadyAt: number | null;
  /** When the last card's view initialised; null while any is not ready. */
  allReadyAt: number | null;
  /** When every card had either initialised or failed. */
  settledAt: number | null;
  /** The first failed card's text, if any failed. */
  firstError: string | null;
}

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

/**
 * Installed in the chat page before its scripts run: follows each card's `data-status` until it
 * is `ready` (its view said `initialized`) or `error`. Only attribute changes are watched (no
 * polling), so watching costs the page almost nothing.
 */
function watchCards(target: number): void {
  if (window.top !== window) return;
  const progress: RestoreProgress = {
    target,
    ready: 0,
    failed: 0,
    firstReadyAt: null,
    allReadyAt: null,
    settledAt: null,
    firstError: null,
  };
  const ready = new Set<string>();
  const failed = new Set<string>();
  (globalThis as unknown as { benchRestore: RestoreProgress }).benchRestore = progress;
  new MutationObserver((records) => {
    for (const record of records) {
      const element = record.target as Element;
      if (element.getAttribute("data-testid") !== "card") continue;
      const status = element.getAttribute("data-status");
      const id = element.getAttribute("data-instance-id");
      if (id === null || ready.has(id) || failed.has(id)) continue;
      const now = performance.now();
      if (status === "ready") {
        ready.add(id);
        progress.firstReadyAt ??= now;
        if (ready.size >= target) progress.allReadyAt ??= now;
      } else if (status === "error") {
        failed.add(id);
        progress.firstError ??=
          element.querySelector('[data-testid="card-error"]')?.textContent ?? "unknown";
      } else {
        continue;
      }
      progress.ready = ready.size;
      progress.failed = failed.size;
      if (ready.size + failed.size >= target) progress.settledAt ??= now;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-status"] });
}

async function reopen(
  context: BrowserContext,
  url: string,
  cards: number,
  timeoutMs: number,
): Promise<RestoreProgress> {
  const page = await context.newPage();
  try {
    await page.addInitScript(watchCards, cards);
    await page.goto(url);
    const read = () =>
      page.evaluate(
        () => (globalThis as unknown as { benchRestore: RestoreProgress }).benchRestore,
      );
    try {
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { benchRestore?: RestoreProgress }).benchRestore?.settledAt !=
          null,
        undefined,
        { timeout: timeoutMs, polling: 250 },
      );
    } catch {
      const progress = await read();
      throw new BenchFailure(
        `After ${timeoutMs} ms, ${progress.ready} of ${cards} views had initialised and ` +
          `${progress.failed} had failed; the rest were still loading.`,
      );
    }
    return await read();
  } finally {
    await page.close();
  }
}

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

/**
 * Measures one size: writes the conversation, starts the host on it, reopens it in new tabs,
 * interleaved with the baseline.
 *
 * @throws {BenchFailure} when a reopen calls a tool, or the cards do not settle in time.
 */
async function measure(
  cards: number,
  html: string,
  rounds: { warmup: number; iterations: number; maxMs: number; timeoutMs: number },
): Promise<BenchResult> {
  const dataDirectory = temporaryDataDirectory();
  const counts: ToolCallCounts = {};
  const saved = await writeSavedConversation(storeSpec(dataDirectory), { cards });
  const host = await startBenchHost({
    sources: [countedSource(notesApp(), counts)],
    dataDirectory,
  }).catch((error: unknown) => {
    rmSync(dataDirectory, { recursive: true, force: true });
    throw error;
  });
  let bare: BarePageServer | null = null;
  let browser: Browser | null = null;
  try {
    bare = await startBarePageServer();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // Signed in as a person is: the cookie and the page's stored binding (both are needed).
    const signInPage = await context.newPage();
    await signInPage.goto(host.signInUrl());
    await signInPage.waitForURL(`${host.origin}/`);
    await signInPage.close();
    const conversationUrl = `${host.origin}/#/c/${encodeURIComponent(saved.conversationId)}`;
    const barePage = await (await browser.newContext()).newPage();
    await barePage.goto(bare.url);
    const views = saved.instanceIds.map((instanceId) => {
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
          const progress = await reopen(context, conversationUrl, cards, rounds.timeoutMs);
          reopens.push(progress);
          return progress.allReadyAt ?? progress.settledAt ?? Number.NaN;
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
    const hostRow = summarize(LABELS.host, samples.get(LABELS.host) ?? [], {
      cards,
      "tool calls": toolCalls,
      "first view ms (median)": Math.round(
        summarize(
          "",
          measured.map((progress) => progress.firstReadyAt ?? Number.NaN),
        ).median,
      ),
      "views failed (most in one reopen)": failed,
    });
    const bareRow = summarize(LABELS.bare, samples.get(LABELS.bare) ?? [], { cards });
    const notes = [
      `A saved conversation of ${cards} Notes cards (an example app, a ${Math.round(html.length / 1024)} kB single-file view), written into the SQLite store before the host started.`,
      "Host: from the chat page's navigation start (a new tab on #/c/<id>, signed in) to the last card's view saying `initialized`; this includes loading the web app, the socket, the snapshot, one `card:attach` per card (each page read again from the app and sent whole) and the sandbox proxies.",
      "Bare: the same views, inputs and results loaded at once into bare sandboxed iframes with an AppBridge each, from an already open page.",
      `Tool calls the servers saw during every reopen: ${toolCalls} (must be 0).`,
    ];
    if (failed > 0) {
      notes.push(
        `PROBLEM: in a reopen, ${failed} of ${cards} cards failed instead of initialising ("${firstError ?? "unknown"}"); ` +
          "the host figure is then the time until every card had initialised or failed.",
      );
    }
    return {
      name: `restore/${cards}`,
      unit: "ms",
      rows: [bareRow, hostRow],
      ratios: { "host / bare (median)": ratio(hostRow.median, bareRow.median) },
      notes,
    };
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
 * @returns one result per size: time to every view initialised, for the host and the baseline.
 * @throws {BenchFailure} when a reopen calls a tool, or the cards do not settle in time.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const html = await notesPage();
  if (options.quick) {
    return [await measure(5, html, { warmup: 0, iterations: 1, maxMs: 60_000, timeoutMs: 60_000 })];
  }
  const results: BenchResult[] = [];
  for (const cards of [50, 200]) {
    results.push(
      await measure(cards, html, { warmup: 1, iterations: 3, maxMs: 300_000, timeoutMs: 240_000 }),
    );
  }
  return results;
}
