// The benchmark runner: `npm run bench` runs every benchmark at full size, prints a table and
// writes bench/results.json; `-- --quick` runs each at a tiny size (part of `npm test`, so the
// harness cannot rot) and writes bench/results-quick.json; `-- --only <name>[,<name>]` picks some.
// Exits non-zero when a benchmark fails or breaks a promise (never because of a time).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { errorMessage } from "@mcp-chat-host/protocol";
import { BenchFailure, type BenchModule, type BenchResult } from "./lib/bench-result";
import { evaluateGoals, formatGoals } from "./lib/goals";
import { benchDirectory } from "./lib/paths";
import {
  formatMachine,
  formatTable,
  machineInfo,
  writeReport,
  type BenchFailureRecord,
} from "./lib/report";

/** Every benchmark, in the order a run prints them; each is `bench/benchmarks/<name>.ts`. */
const BENCHMARKS = [
  "page-call-round-trip",
  "many-sessions",
  "context-assembly",
  "restore",
  "first-card",
  "start-and-idle",
  "many-sessions-cluster",
  "store-throughput",
  "view-transfer",
  "remote-sign-in",
  "server-box",
] as const;

/** A backstop per benchmark; each bounds its own waits well within it. */
const TIME_LIMIT_MS = { quick: 3 * 60_000, full: 45 * 60_000 };

const USAGE = `Usage: npm run bench -- [--quick] [--only <name>[,<name>...]] [--out <file>]

  --quick        tiny sizes and a handful of iterations (what npm test runs)
  --only <name>  run only these benchmarks: ${BENCHMARKS.join(", ")}
  --out <file>   where to write the JSON (default bench/results.json, or
                 bench/results-quick.json with --quick)`;

function parseOptions(): { quick: boolean; only: string[]; out: string } {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string", multiple: true },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = (values.only ?? []).flatMap((entry) => entry.split(",")).filter(Boolean);
  const unknown = only.filter((entry) => !(BENCHMARKS as readonly string[]).includes(entry));
  if (unknown.length > 0) {
    throw new Error(`There is no benchmark named ${unknown.join(", ")}.\n\n${USAGE}`);
  }
  const quick = values.quick;
  const out = values.out ?? join(benchDirectory, quick ? "results-quick.json" : "results.json");
  return { quick, only, out };
}

async function loadBenchmark(name: string): Promise<BenchModule> {
  const file = join(benchDirectory, "benchmarks", `${name}.ts`);
  if (!existsSync(file)) throw new Error(`bench/benchmarks/${name}.ts does not exist yet.`);
  const loaded = (await import(new URL(`./benchmarks/${name}.ts`, import.meta.url).href)) as
    Partial<BenchModule> | undefined;
  if (typeof loaded?.run !== "function") {
    throw new Error(`bench/benchmarks/${name}.ts must export run(options: { quick: boolean }).`);
  }
  return loaded as BenchModule;
}

/** Runs one benchmark within the time limit. */
async function runBenchmark(name: string, quick: boolean): Promise<BenchResult[]> {
  const benchmark = await loadBenchmark(name);
  const limit = quick ? TIME_LIMIT_MS.quick : TIME_LIMIT_MS.full;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`It did not finish within ${limit / 60_000} minutes.`)),
      limit,
    );
  });
  try {
    return await Promise.race([benchmark.run({ quick }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<number> {
  const options = parseOptions();
  const machine = machineInfo();
  const names = options.only.length > 0 ? options.only : [...BENCHMARKS];
  console.log(`Benchmarks${options.quick ? " (quick)" : ""} on ${formatMachine(machine)}`);
  const results: BenchResult[] = [];
  const failures: BenchFailureRecord[] = [];
  for (const name of names) {
    const started = performance.now();
    console.log(`\n== ${name}`);
    try {
      const produced = await runBenchmark(name, options.quick);
      results.push(...produced);
      process.stdout.write(formatTable(produced));
      console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      const message = errorMessage(error);
      if (error instanceof BenchFailure && error.results.length > 0) {
        results.push(...error.results);
        process.stdout.write(formatTable(error.results));
      }
      failures.push({ benchmark: name, message });
      console.error(`FAILED ${name}: ${message}`);
    }
  }
  const goals = evaluateGoals(results);
  writeReport(options.out, { machine, quick: options.quick, results, goals, failures });
  console.log(`\nAll figures${options.quick ? " (quick)" : ""}:`);
  process.stdout.write(formatTable(results));
  console.log("");
  process.stdout.write(formatGoals(goals, options.quick));
  console.log(`\nWritten to ${options.out}.`);
  if (failures.length > 0) {
    console.error(`\n${failures.length} benchmark(s) failed:`);
    for (const failure of failures) console.error(`- ${failure.benchmark}: ${failure.message}`);
    return 1;
  }
  return 0;
}

main().then(
  // Exit explicitly: a benchmark's leftover handle (a keep-alive socket) must not hang the run.
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
