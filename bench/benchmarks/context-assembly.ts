// Benchmark 3, context assembly: with 10, 1,000 and 10,000 open cards reporting, how long the
// engine takes to build a chat's app context, and how long that text is (it must stay bounded by
// five reports whatever the number of cards; the run fails otherwise). The baseline, in the same
// run and interleaved, builds the same text by hand from the five reports already picked: the
// floor of any implementation.
import { APP_CONTEXT_HEADER, buildAppContext, createHostServer } from "@mcp-chat-host/host";
import type { HostServer } from "@mcp-chat-host/host";
import { pino } from "pino";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleaveTimings, ratio, summarize } from "../lib/stats";

/** The benchmark's name (the runner's `--only` value). */
export const name = "context-assembly";

/** The promise under test: at most this many reports reach the model. */
const MAX_REPORTS = 5;
/** And each report is cut to this many characters. */
const MAX_REPORT_CHARACTERS = 2_000;
const CHAT = "chat-1";

/** The engine's session of a tab, as the server's registry holds it (cards and services inside). */
type EngineSession = Awaited<ReturnType<HostServer["sessions"]["obtain"]>>;
type LiveCard = Parameters<EngineSession["context"]["cards"]["add"]>[0];
type ReportParams = Parameters<EngineSession["cardService"]["updateContext"]>[1];

/** A card's id, as the engine writes them (`host-` and 16 characters). */
function instanceId(index: number): string {
  return `host-${index.toString(16).padStart(16, "0")}`;
}

function title(index: number): string {
  return `Card ${index}`;
}

/**
 * What card `index` reports: a sentence or two; every tenth adds structured content; every 97th
 * is 3,000 characters long, so truncation is part of the work.
 */
function reportOf(index: number): ReportParams {
  const sentence = `Card ${index} shows the weekly figures for region ${index % 37}: ${index * 7} orders, ${index % 11} returns, status ${index % 3 === 0 ? "green" : "amber"}.`;
  const text = index % 97 === 0 ? sentence.repeat(Math.ceil(3_000 / sentence.length)) : sentence;
  return {
    content: [{ type: "text", text }],
    ...(index % 10 === 0
      ? { structuredContent: { index, totals: [index, index * 2, index * 3], unit: "orders" } }
      : {}),
  } as ReportParams;
}

/** A deterministic shuffle (a linear congruential generator), so report order ≠ creation order. */
function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_value, index) => index);
  let state = 12_345;
  for (let index = count - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other] ?? 0, order[index] ?? 0];
  }
  return order;
}

/** The longest text five reports can give: the header and five full blocks. */
function lengthBound(longestTitle: number): number {
  const wrapper = `<app-context app="${"x".repeat(longestTitle)}" id="${instanceId(0)}">\n\n</app-context>`;
  return APP_CONTEXT_HEADER.length + MAX_REPORTS * (2 + wrapper.length + MAX_REPORT_CHARACTERS);
}

/** Cuts a report as the relay does (our reports are ASCII, so units are characters). */
function truncated(text: string): string {
  return text.length <= MAX_REPORT_CHARACTERS
    ? text
    : `${text.slice(0, MAX_REPORT_CHARACTERS - 3)}...`;
}

/** The text of a report as the relay reads it: its text blocks, then its structured content. */
function reportTextOf(report: ReportParams): string {
  const blocks = (report.content as { text: string }[]).map((block) => block.text);
  if (report.structuredContent !== undefined) blocks.push(JSON.stringify(report.structuredContent));
  return blocks.join("\n");
}

/** Fills a fresh session with `count` open cards of one chat, each reporting once, shuffled. */
function fillSession(session: EngineSession, count: number): number[] {
  for (let index = 0; index < count; index += 1) {
    const card: LiveCard = {
      descriptor: {
        instanceId: instanceId(index),
        conversationId: "bench-conversation",
        chatId: CHAT,
        kind: "card",
        source: "bench-app",
        tool: "show",
        arguments: {},
        result: null,
        title: title(index),
        checked: true,
        createdAt: index,
      },
      chain: [],
      restored: false,
      report: null,
      reportedAt: null,
      disposed: false,
      generation: 0,
      opening: null,
    };
    session.context.cards.add(card);
  }
  const order = shuffled(count);
  // Reported through the engine's own entry point (what `card:update-context` calls).
  for (const index of order) session.cardService.updateContext(instanceId(index), reportOf(index));
  return order;
}

async function measureSize(
  session: EngineSession,
  count: number,
  quick: boolean,
): Promise<BenchResult> {
  const order = fillSession(session, count);
  // The floor: the five latest reports already picked, in the order the relay lists them.
  const picked = order.slice(-MAX_REPORTS);
  const pickedBlocks = picked.map((index) => ({
    title: title(index),
    id: instanceId(index),
    text: truncated(reportTextOf(reportOf(index))),
  }));
  const byHand = () =>
    [
      APP_CONTEXT_HEADER,
      ...pickedBlocks.map(
        (block) =>
          `<app-context app="${block.title}" id="${block.id}">\n${block.text}\n</app-context>`,
      ),
    ].join("\n\n");
  const mapped = session.context.cards.contextCards((owner) => owner);
  const engine = () => session.contextFor(CHAT);
  const relayOnly = () => buildAppContext(mapped, CHAT);

  const text = engine();
  if (text === null) throw new BenchFailure(`With ${count} cards the engine built no context.`);
  const blocks = text.split("<app-context app=").length - 1;
  const bound = lengthBound(title(count).length);
  if (blocks > MAX_REPORTS || text.length > bound) {
    console.error(text);
    throw new BenchFailure(
      `With ${count} cards reporting, the context has ${blocks} reports and ${text.length} characters; it must stay within ${MAX_REPORTS} reports and ${bound} characters. The text is printed above.`,
    );
  }
  if (text !== byHand() || relayOnly() !== text) {
    throw new BenchFailure(
      `With ${count} cards, the hand-built baseline and the engine disagree, so the comparison would be unfair; update the baseline to the relay's format (context-assembly.ts).`,
    );
  }

  // Batch fast calls so each sample lasts about a millisecond (the clock's resolution is ~1 µs).
  const probeStart = performance.now();
  for (let call = 0; call < 20; call += 1) engine();
  const perCall = (performance.now() - probeStart) / 20;
  const batch = Math.min(10_000, Math.max(1, Math.ceil(1 / Math.max(perCall, 1e-4))));
  const samples = await interleaveTimings(
    [
      { label: "host: session.contextFor (registry + relay)", run: engine },
      { label: "host: buildAppContext (cards already mapped)", run: relayOnly },
      { label: "baseline: 5 picked reports joined by hand", run: byHand },
    ],
    quick
      ? { warmup: 2, iterations: 10, maxMs: 1_000, batch }
      : { warmup: 20, iterations: 300, maxMs: 8_000, batch },
  );
  const microseconds = (label: string) =>
    (samples.get(label) ?? []).map((milliseconds) => milliseconds * 1_000);
  const rows = [...samples.keys()].map((label) =>
    summarize(label, microseconds(label), { cards: count, length: text.length, reports: blocks }),
  );
  const [engineRow, relayRow, baselineRow] = rows;
  return {
    name: `${name}/${count}`,
    unit: "µs",
    rows,
    ratios: {
      "contextFor / baseline (median)": ratio(engineRow?.median ?? NaN, baselineRow?.median ?? NaN),
      "buildAppContext / baseline (median)": ratio(
        relayRow?.median ?? NaN,
        baselineRow?.median ?? NaN,
      ),
    },
    notes: [
      `${count} open cards of one chat, each reported once in shuffled order; samples are per call, timed in batches of ${batch}. The text is ${text.length} characters (bound ${bound}).`,
    ],
  };
}

/**
 * Runs the benchmark at 10, 1,000 and 10,000 cards (the same sizes in quick mode, with a handful
 * of iterations: building 10,000 cards takes well under a second).
 *
 * @returns one result per size.
 * @throws {BenchFailure} when a context holds more than five reports or is longer than five full
 *   reports, or when the baseline's text differs from the engine's.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  let clock = 1_000;
  const server = createHostServer({
    store: ":memory:",
    model: "offline",
    logger: pino({ level: "silent" }),
    // Every card reports once per size (10,000 cards of one source): the page-request budgets
    // are not what is measured.
    pageCallRate: { perSecond: 1_000_000, burst: 1_000_000 },
    // Each reading moves the clock on, so every report has its own time and the order is exact.
    now: () => (clock += 1),
    session: (session) => {
      session.chat();
    },
  });
  await server.listen({ port: 0, host: "127.0.0.1" });
  try {
    const results: BenchResult[] = [];
    for (const count of [10, 1_000, 10_000]) {
      // A session of its own per size: no socket needed, the registry makes it as for a tab.
      const session = await server.sessions.obtain(`bench-context-${count}:tab`, {
        id: `bench-${count}`,
      });
      results.push(await measureSize(session, count, options.quick));
    }
    return results;
  } finally {
    await server.close();
  }
}
