// Benchmark 7, store throughput: what a reply costs the store on SQLite and on Postgres, measured
// in the same run and interleaved. A reply is one `appendMessage` (the streaming reply) and then
// `updateMessage` calls as its text grows. Both stores are durable as an operator runs them:
// SQLite on a file in WAL mode with `synchronous=FULL`; Postgres (Debian's, started here on
// 127.0.0.1 with `fsync` on) through its pool over loopback TCP. Sequential calls give each
// write's latency; eight chats writing at once give the throughput the store sustains.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openStore, type HostStore } from "@mcp-chat-host/host";
import { startPostgres, type RunningPostgres } from "@mcp-chat-host/testing";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { temporaryDirectory } from "../lib/paths";
import { interleave, interleaveTimings, median, ratio, summarize } from "../lib/stats";

/** The benchmark's name (the runner's `--only` value). */
export const name = "store-throughput";

/** How many chats write at once in the throughput part. */
const WRITERS = 8;

/** One store under test and the reply it is writing. */
interface Subject {
  label: "sqlite" | "postgres";
  store: HostStore;
  conversationId: string;
  /** The latest reply appended, which the updates grow. */
  replyId: string;
  text: string;
}

async function prepare(label: Subject["label"], store: HostStore): Promise<Subject> {
  const conversation = await store.createConversation("bench-user", { title: "Throughput" });
  const subject: Subject = { label, store, conversationId: conversation.id, replyId: "", text: "" };
  await append(subject);
  return subject;
}

/** Appends a streaming reply, as a turn does when the model starts answering. */
async function append(subject: Subject): Promise<void> {
  subject.text = "";
  const reply = await subject.store.appendMessage({
    conversationId: subject.conversationId,
    chatId: "chat-1",
    role: "assistant",
    parts: [],
    status: "streaming",
    nodeId: "bench-node",
  });
  subject.replyId = reply.id;
}

/** Writes the reply's text grown by one chunk, as a turn does while the model streams. */
async function update(subject: Subject): Promise<void> {
  subject.text += "A sentence of the reply streaming in, about sixty characters. ";
  await subject.store.updateMessage(subject.conversationId, subject.replyId, {
    parts: [{ type: "text", text: subject.text }],
  });
}

/** `operations` append-or-update calls spread over {@link WRITERS} chats; returns calls per second. */
async function burst(subjects: Subject[], operations: number): Promise<number> {
  const begin = performance.now();
  await Promise.all(
    subjects.map(async (subject, index) => {
      const share =
        Math.floor(operations / subjects.length) + (index < operations % subjects.length ? 1 : 0);
      for (let call = 0; call < share; call += 1) {
        // One reply in ten calls: an append, then nine updates.
        await (call % 10 === 0 ? append(subject) : update(subject));
      }
    }),
  );
  return (operations * 1_000) / (performance.now() - begin);
}

/**
 * Runs the benchmark: appendMessage and updateMessage latency on each store (sequential,
 * interleaved), then throughput with eight chats writing at once.
 *
 * @returns the latency result and the throughput result.
 * @throws {BenchFailure} when Postgres is not installed or a store cannot be opened.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const folder = temporaryDirectory("mch-bench-store-");
  let postgres: RunningPostgres | undefined;
  const stores: HostStore[] = [];
  try {
    try {
      postgres = await startPostgres({ durable: true });
    } catch (error) {
      throw new BenchFailure(error instanceof Error ? error.message : String(error));
    }
    const sqliteStore = await openStore(`sqlite:${join(folder, "bench.db")}`);
    stores.push(sqliteStore);
    const postgresStore = await openStore(await postgres.createDatabase("bench_store"), {
      maxConnections: WRITERS,
    });
    stores.push(postgresStore);
    const sqlite = await prepare("sqlite", sqliteStore);
    const pg = await prepare("postgres", postgresStore);

    const rounds = options.quick
      ? { warmup: 2, iterations: 10, maxMs: 2_000 }
      : { warmup: 20, iterations: 1_000, maxMs: 30_000 };
    const latency = await interleaveTimings(
      [
        { label: "sqlite: appendMessage", run: () => append(sqlite) },
        { label: "postgres: appendMessage", run: () => append(pg) },
        { label: "sqlite: updateMessage", run: () => update(sqlite) },
        { label: "postgres: updateMessage", run: () => update(pg) },
      ],
      rounds,
    );
    const latencyRows = [...latency.entries()].map(([label, samples]) =>
      summarize(label, samples, { "calls/s (at the median)": Math.round(1_000 / median(samples)) }),
    );
    const medianOf = (label: string) =>
      latencyRows.find((row) => row.label === label)?.median ?? NaN;

    const writers = async (label: Subject["label"], store: HostStore) =>
      Promise.all(Array.from({ length: WRITERS }, () => prepare(label, store)));
    const sqliteWriters = await writers("sqlite", sqliteStore);
    const postgresWriters = await writers("postgres", postgresStore);
    const operations = options.quick ? 80 : 1_000;
    const throughput = await interleave(
      [
        { label: `sqlite: ${WRITERS} chats writing`, run: () => burst(sqliteWriters, operations) },
        {
          label: `postgres: ${WRITERS} chats writing`,
          run: () => burst(postgresWriters, operations),
        },
      ],
      options.quick
        ? { warmup: 1, iterations: 2, maxMs: 5_000 }
        : { warmup: 1, iterations: 10, maxMs: 90_000 },
    );
    const throughputRows = [...throughput.entries()].map(([label, samples]) =>
      summarize(label, samples, { "calls per sample": operations }),
    );
    const [sqliteThroughput, postgresThroughput] = throughputRows;

    return [
      {
        name: `${name}/latency`,
        unit: "ms",
        rows: latencyRows,
        ratios: {
          "postgres / sqlite appendMessage (median)": ratio(
            medianOf("postgres: appendMessage"),
            medianOf("sqlite: appendMessage"),
          ),
          "postgres / sqlite updateMessage (median)": ratio(
            medianOf("postgres: updateMessage"),
            medianOf("sqlite: updateMessage"),
          ),
        },
        notes: [
          "One call at a time, the four subjects interleaved. Each write is one transaction, committed (and flushed to disk) before its promise resolves: SQLite WAL with synchronous=FULL; Postgres with fsync and synchronous_commit on, over loopback TCP.",
        ],
      },
      {
        name: `${name}/throughput`,
        unit: "calls/s",
        rows: throughputRows,
        ratios: {
          [`postgres / sqlite, ${WRITERS} chats (median)`]: ratio(
            postgresThroughput?.median ?? NaN,
            sqliteThroughput?.median ?? NaN,
          ),
        },
        notes: [
          `${WRITERS} chats write at once, each a reply of one append and nine updates, ${operations} calls per sample. SQLite's calls are synchronous, so they run one after another; Postgres's run on up to ${WRITERS} pooled connections, and its commits can share a disk flush.`,
        ],
      },
    ];
  } finally {
    for (const store of stores) await store.close();
    await postgres?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
