// Benchmark 11, the server box: what a stdio MCP server's start costs in its bubblewrap box. A
// real npm server (server-everything, by node path, as the e2e specs run the npm servers) is
// started through McpClientSession, spawn to `initialize` answered to `tools/list` answered, then
// closed; boxed and unboxed alternate round by round in the same run. Goal: boxed at most 10%
// slower. Runs the connection layer in this process (as context-assembly runs the engine's
// functions): the host's start does not expose one server's start.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  configureServerBox,
  McpClientSession,
  type McpStdioServerConfig,
} from "@mcp-chat-host/connection";
import type { BenchOptions, BenchResult } from "../lib/bench-result";
import { repositoryRoot, temporaryDirectory } from "../lib/paths";
import { interleave, ratio, summarize } from "../lib/stats";

/** The benchmark's name (the runner's `--only` value). */
export const name = "server-box";

const unboxedLabel = "baseline: unboxed (node server-everything stdio)";
const boxedLabel = "host: in its box (bwrap … node server-everything stdio)";

/** server-everything's entry point, from the repository's node_modules (the connection tests'). */
function everythingEntry(): McpStdioServerConfig {
  const folder = join(repositoryRoot, "node_modules", "@modelcontextprotocol", "server-everything");
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  const bin = Object.values(manifest.bin)[0] ?? "dist/index.js";
  return {
    kind: "stdio",
    name: "everything",
    command: process.execPath,
    args: [join(folder, bin), "stdio"],
    env: {},
  };
}

/** One start: spawn, initialize, tools/list; the time in ms. Closing is not timed. */
async function startOnce(entry: McpStdioServerConfig): Promise<number> {
  const started = performance.now();
  const session = await McpClientSession.open(entry, { startupTimeout: 60 });
  try {
    const { tools } = await session.listTools();
    if (tools.length === 0) throw new Error("server-everything listed no tools.");
    return performance.now() - started;
  } finally {
    await session.close();
  }
}

/**
 * Runs the benchmark: starts of the server boxed and unboxed, alternating (full: two warm-up
 * rounds and 20 measured; quick: 2).
 *
 * @returns the start times and the boxed / unboxed ratio; only the unboxed figure, with the
 *   reason, where bubblewrap cannot make a box.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const entry = everythingEntry();
  // A data folder for the box to hide, as the command line gives it.
  const hiddenFolders = [temporaryDirectory("mch-bench-box-")];
  const probe = configureServerBox({ mode: "auto", hiddenFolders });
  const subjects = [
    {
      label: unboxedLabel,
      run: () => {
        configureServerBox({ mode: "off" });
        return startOnce(entry);
      },
    },
    ...(probe.boxed
      ? [
          {
            label: boxedLabel,
            run: () => {
              // Probes bubblewrap again (outside the timed part).
              configureServerBox({ mode: "required", hiddenFolders });
              return startOnce(entry);
            },
          },
        ]
      : []),
  ];
  try {
    const samples = await interleave(subjects, {
      warmup: options.quick ? 0 : 2,
      iterations: options.quick ? 2 : 20,
      maxMs: options.quick ? 20_000 : 300_000,
    });
    const rows = subjects.map((subject) =>
      summarize(subject.label, samples.get(subject.label) ?? []),
    );
    const [unboxed, boxed] = rows;
    return [
      {
        name: `${name}/start`,
        unit: "ms",
        rows,
        ...(boxed === undefined
          ? {}
          : {
              ratios: { "boxed / unboxed (median)": ratio(boxed.median, unboxed?.median ?? NaN) },
            }),
        notes: [
          "McpClientSession.open (spawn, initialize) then tools/list, boxed and unboxed alternating round by round. Goal: boxed / unboxed at most 1.1.",
          ...(probe.boxed ? [] : [`Not boxed here: ${probe.reason}.`]),
        ],
      },
    ];
  } finally {
    configureServerBox({ mode: "off" });
    for (const folder of hiddenFolders) rmSync(folder, { recursive: true, force: true });
  }
}
