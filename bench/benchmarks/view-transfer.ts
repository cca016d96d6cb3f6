// Benchmark 9: the view transfers of a restore. A saved conversation of 200 Notes cards (10 in
// quick mode) is reopened by a Node socket.io client that attaches every card, four at a time as
// the tab's attach queue does, and counts the bytes of the `card:attach` answers and the time
// until the last one arrived. Two ways, interleaved in the same run, each from a fresh session
// (cold server cache): as a tab did before the view cache ("every answer carries the page": no
// `views` in the attach), and as the tab does now (`views` names the page hashes it already
// holds, so the page travels once). The browser's own work is not in these figures (the
// `restore` benchmark measures the whole reopen in Chromium). The host is the program under test
// with its example apps (bench-host.ts); its /metrics shows that no tool was called.
import type { SocketTestClient } from "@mcp-chat-host/host/testing";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleave, ratio, summarize, type Subject } from "../lib/stats";
import { rmSync } from "node:fs";
import {
  startBenchHost,
  storeSpec,
  temporaryDataDirectory,
  totalCalls,
} from "../fixtures/bench-host";
import { writeSavedConversation } from "../fixtures/saved-conversation";
import { connectBenchClient, signInCookie } from "../fixtures/socket-client";

const LABELS = {
  before: "every answer carries the page (before)",
  after: "the tab names the pages it holds (now)",
} as const;

/** Cards attaching at once, as the tab's attach queue lets them. */
const CONCURRENCY = 4;

/** One reopen: the answers' bytes and the time until the last answer. */
interface Transfer {
  ms: number;
  bytes: number;
  withHtml: number;
}

async function reopenAndAttach(
  client: SocketTestClient,
  conversationId: string,
  instanceIds: readonly string[],
  holdViews: boolean,
): Promise<Transfer> {
  await client.value("session:hello", {});
  const started = performance.now();
  await client.value("conversation:open", { conversationId });
  const held = new Set<string>();
  let bytes = 0;
  let withHtml = 0;
  let next = 0;
  let first: Promise<void> | null = null;
  async function attachOne(instanceId: string): Promise<void> {
    const views = holdViews && held.size > 0 ? [...held] : undefined;
    const reply = await client.value(
      "card:attach",
      views === undefined ? { instanceId } : { instanceId, views },
      60_000,
    );
    bytes += Buffer.byteLength(JSON.stringify(reply));
    if (reply.page.html !== undefined) withHtml += 1;
    if (reply.page.viewHash !== undefined) held.add(reply.page.viewHash);
  }
  async function worker(): Promise<void> {
    while (next < instanceIds.length) {
      const instanceId = instanceIds[next];
      next += 1;
      if (instanceId === undefined) break;
      // As the tab does: while the first page is on its way, the other cards wait for it.
      if (holdViews && held.size === 0 && first !== null) await first;
      const attaching = attachOne(instanceId);
      if (holdViews && first === null) first = attaching;
      await attaching;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
  return { ms: performance.now() - started, bytes, withHtml };
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 10 cards, 2 rounds; else 200 cards, 5 rounds (after 1 warm-up).
 * @returns one result: time (ms) of each way, with the bytes and the answers that carried a page.
 * @throws {BenchFailure} when the reopen called a tool.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const cards = options.quick ? 10 : 200;
  const dataDirectory = temporaryDataDirectory();
  const saved = await writeSavedConversation(storeSpec(dataDirectory), { cards });
  const host = await startBenchHost({ apps: "examples", dataDirectory }).catch((error: unknown) => {
    rmSync(dataDirectory, { recursive: true, force: true });
    throw error;
  });
  const transfers = new Map<string, Transfer[]>([
    [LABELS.before, []],
    [LABELS.after, []],
  ]);
  try {
    let tab = 0;
    const subject = (label: string, holdViews: boolean): Subject<number> => ({
      label,
      async run() {
        const cookie = await signInCookie(await host.signInUrl());
        const client = await connectBenchClient(host.origin, cookie, `bench-tab-${(tab += 1)}`);
        try {
          const transfer = await reopenAndAttach(
            client,
            saved.conversationId,
            saved.instanceIds,
            holdViews,
          );
          transfers.get(label)?.push(transfer);
          return transfer.ms;
        } finally {
          client.close();
        }
      },
    });
    const samples = await interleave([subject(LABELS.before, false), subject(LABELS.after, true)], {
      warmup: 1,
      iterations: options.quick ? 2 : 5,
      maxMs: options.quick ? 30_000 : 180_000,
    });
    const counts = await host.toolCalls();
    if (totalCalls(counts) !== 0) {
      throw new BenchFailure(
        `Reopening called tools (${JSON.stringify(counts)}); a restore calls none.`,
      );
    }
    const rows = [LABELS.before, LABELS.after].map((label) => {
      const row = summarize(label, samples.get(label) ?? []);
      const last = transfers.get(label)?.at(-1);
      row.extra = {
        "answers' kB": last === undefined ? "-" : Math.round(last.bytes / 1024),
        "answers with the page": last?.withHtml ?? "-",
      };
      return row;
    });
    const [before, after] = rows;
    return [
      {
        name: `view-transfer/${cards}`,
        unit: "ms",
        rows,
        ratios: {
          "now / before (median time)": ratio(after?.median ?? NaN, before?.median ?? NaN),
        },
        notes: [
          "Each round reopens the conversation in a new session (a cold server cache) and attaches every card, four at a time; the kB are of the last round's answers, as JSON.",
          "The host is the program under test (node packages/mcp-chat-host/dist/cli.js, its example apps on) in a child process; the socket.io client runs in the benchmark's process. Tool calls the host made (its /metrics): none.",
        ],
      },
    ];
  } finally {
    await host.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
