import { describe, expect, it } from "vitest";
import type { BenchResult, BenchRow } from "./bench-result";
import { evaluateGoals, formatGoals } from "./goals";

/** A row with a steady spread (p25 and p75 within 10% of the median). */
function row(label: string, median: number, extra?: BenchRow["extra"], p99 = median): BenchRow {
  return {
    label,
    median,
    p25: median * 0.9,
    p75: median * 1.1,
    p99,
    n: 10,
    ...(extra === undefined ? {} : { extra }),
  };
}

/** The page-call result: the floors and both host paths, medians in ms. */
function pageCalls(figures: {
  inProcess: number;
  echo: number;
  socket: number;
  bare: number;
  chromium: number;
}): BenchResult {
  return result("page-call-round-trip", "ms", [
    row("in-process MCP client (floor)", figures.inProcess),
    row("MCP client to the app over stdio, no host (floor with the app's process)", 0.5),
    row("socket.io acknowledgement echo, no host (server floor, with in-process)", figures.echo),
    row("Node socket.io client (server path)", figures.socket),
    row("bare iframe postMessage echo, no server (browser floor)", figures.bare),
    row("Chromium view (whole path)", figures.chromium),
  ]);
}

function result(name: string, unit: string, rows: BenchRow[]): BenchResult {
  return { name, unit, rows };
}

/** A full run's results, shaped as the benchmarks report them, with every goal met. */
function fullRun(): BenchResult[] {
  return [
    pageCalls({ inProcess: 0.09, echo: 0.2, socket: 0.5, bare: 0.6, chromium: 1.5 }),
    result("many-sessions/100", "ms", [
      row("host: card:call-tool over socket.io, 100 sessions", 0.5, undefined, 900),
      row("baseline: in-process MCP client, same rate", 0.1),
    ]),
    result("many-sessions/1000", "ms", [
      row(
        "host: card:call-tool over socket.io, 1000 sessions",
        0.4,
        { rssKiBPerIdleSession: 90 },
        20,
      ),
      row("baseline: in-process MCP client, same rate", 0.1, undefined, 2),
    ]),
    result("restore/50", "ms", [
      row("bare iframes + AppBridge, every view (baseline)", 9000),
      row("host: reopen → the cards in view live", 1000, { "first view ms (median)": 100000 }),
    ]),
    result("restore/200", "ms", [
      row("bare iframes + AppBridge, every view (baseline)", 40000),
      row("host: reopen → the cards in view live", 1200, {
        "first view ms (median)": 800,
        "tool calls": 0,
        "most live frames": 6,
      }),
    ]),
    result("restore-memory/50", "MB", [
      row("bare iframes + AppBridge, every view (baseline)", 300),
      row("host: reopened, settled", 240),
    ]),
    result("restore-memory/200", "MB", [
      row("bare iframes + AppBridge, every view (baseline)", 750),
      row("host: reopened, settled", 230),
    ]),
    result("first-card", "ms", [
      row("bare iframe + AppBridge (baseline)", 90),
      row("host: tool result → view initialized", 130),
    ]),
    result("start-and-idle/cold-start", "ms", [
      row("host: bundle (node packages/mcp-chat-host/dist/cli.js)", 500),
      row("baseline: bare express + socket.io (node -e)", 300),
    ]),
    result("start-and-idle/idle-rss", "MiB", [
      row("host: bundle (node packages/mcp-chat-host/dist/cli.js)", 85),
      row("baseline: bare express + socket.io (node -e)", 59),
    ]),
    result("remote-sign-in/call", "ms", [
      row("static Authorization header (baseline)", 2.5),
      row("signed in with OAuth (the person's bearer)", 2.7),
    ]),
    refreshRun(100, 1),
  ];
}

/** A remote-sign-in burst result: `sessions` at once, `most` refresh requests in the worst burst. */
function refreshRun(sessions: number, most: number): BenchResult {
  return result(`remote-sign-in-refresh/${sessions}`, "ms", [
    row("burst, token fresh (baseline)", 40),
    row("burst, token expired: one refresh", 60, {
      sessions,
      "refresh requests, fewest in a burst": 1,
      "refresh requests, most in a burst": most,
    }),
    row("burst, token refused (401): one refresh", 70, {
      sessions,
      "refresh requests, fewest in a burst": 1,
      "refresh requests, most in a burst": 1,
    }),
  ]);
}

describe("evaluateGoals", () => {
  it("reads every goal from a full run, with its baseline, figure and ratio", () => {
    const goals = evaluateGoals(fullRun());
    expect(goals.map((goal) => goal.status)).toEqual(Array(10).fill("met"));
    const [reopen, live, nodeCall, viewCall, firstCard, start, idle, sessions, call, refresh] =
      goals;
    expect(reopen?.measure).toContain("200 cards");
    expect(reopen?.now).toContain("first view 800 ms");
    expect(reopen?.ratio).toBe("0.0300×");
    expect(live?.now).toBe("at most 6 live; 240 MB at 50, 230 MB at 200 cards");
    expect(nodeCall?.ratio).toBe("1.72×");
    expect(nodeCall?.baseline).toContain("server floor 0.290 ms = socket.io echo 0.200 ms");
    expect(nodeCall?.now).toBe("0.500 ms (p25 0.450, p75 0.550, p99 0.500)");
    expect(viewCall?.ratio).toBe("+0.400 ms");
    expect(viewCall?.baseline).toContain("1.10 ms = bare iframe echo 0.600 ms");
    expect(firstCard?.ratio).toBe("+40 ms");
    expect(start?.ratio).toBe("1.67×");
    expect(idle?.now).toBe("85 MiB");
    expect(sessions?.measure).toContain("1000 sessions");
    expect(sessions?.now).toBe("p99 20 ms; 90 KiB RSS per idle session");
    expect(call?.ratio).toBe("+0.200 ms");
    expect(refresh?.measure).toContain("100 sessions");
    expect(refresh?.now).toBe(
      "refresh requests per burst (expired: 1, refused: 1); expired burst 60 ms, refused 70 ms",
    );
  });

  it("counts a signed-in call over a static header's by more than 1 ms as missed", () => {
    const run = fullRun().map((entry) =>
      entry.name === "remote-sign-in/call"
        ? result(entry.name, entry.unit, [
            row("static Authorization header (baseline)", 2.5),
            row("signed in with OAuth (the person's bearer)", 3.6),
          ])
        : entry,
    );
    expect(evaluateGoals(run)[8]).toMatchObject({ status: "not met", ratio: "+1.10 ms" });
  });

  it("counts a burst with two refreshes, or fewer than 100 sessions, as missed", () => {
    const twice = fullRun().map((entry) =>
      entry.name.startsWith("remote-sign-in-refresh/") ? refreshRun(100, 2) : entry,
    );
    expect(evaluateGoals(twice)[9]).toMatchObject({ status: "not met" });
    expect(evaluateGoals(twice)[9]?.now).toContain("expired: 1 to 2, refused: 1");
    const small = fullRun().map((entry) =>
      entry.name.startsWith("remote-sign-in-refresh/") ? refreshRun(10, 1) : entry,
    );
    expect(evaluateGoals(small)[9]).toMatchObject({ status: "not met" });
  });

  it("says not met when a figure is over its goal", () => {
    const run = fullRun().map((entry) =>
      entry.name === "page-call-round-trip"
        ? pageCalls({ inProcess: 0.09, echo: 0.2, socket: 0.685, bare: 0.6, chromium: 5.8 })
        : entry,
    );
    const goals = evaluateGoals(run);
    expect(goals[2]).toMatchObject({ status: "not met", ratio: "2.36×" });
    expect(goals[3]).toMatchObject({ status: "not met", ratio: "+4.51 ms" });
    expect(goals[3]?.note).toBeUndefined();
  });

  it("never counts a goal met against a noisy baseline, and names the baseline", () => {
    const noisy = (entry: BenchResult): BenchResult => ({
      ...entry,
      rows: entry.rows.map((candidate) =>
        candidate.label.startsWith("in-process")
          ? { ...candidate, p25: 0.05, p75: 0.3 }
          : candidate,
      ),
    });
    const run = fullRun().map((entry) =>
      entry.name === "page-call-round-trip" ? noisy(entry) : entry,
    );
    const nodeCall = evaluateGoals(run)[2];
    expect(nodeCall?.status).toBe("noisy baseline");
    expect(nodeCall?.note).toContain("the in-process MCP client's p75/p25 is 6.00×");
    expect(nodeCall?.note).toContain("would meet the goal");
    const text = formatGoals(evaluateGoals(run), false);
    expect(text).toContain("[noisy baseline] page call, Node socket.io client");
    // A figure that misses its goal stays "not met", noise or not.
    const slow = run.map((entry) =>
      entry.name === "page-call-round-trip"
        ? noisy(pageCalls({ inProcess: 0.09, echo: 0.2, socket: 2, bare: 0.6, chromium: 5.8 }))
        : entry,
    );
    expect(evaluateGoals(slow)[2]).toMatchObject({ status: "not met" });
    expect(evaluateGoals(slow)[2]?.note).toContain("the figures miss the goal");
  });

  it("counts a restore that called a tool as missed, however fast", () => {
    const run = fullRun().map((entry) =>
      entry.name === "restore/200"
        ? result(entry.name, entry.unit, [
            row("bare iframes + AppBridge, every view (baseline)", 40000),
            row("host: reopen → the cards in view live", 900, {
              "first view ms (median)": 500,
              "tool calls": 1,
              "most live frames": 6,
            }),
          ])
        : entry,
    );
    expect(evaluateGoals(run)[0]?.status).toBe("not met");
  });

  it("never calls a smaller run than the goal's size met", () => {
    const run = fullRun().filter((entry) => entry.name !== "many-sessions/1000");
    const sessions = evaluateGoals(run)[7];
    expect(sessions?.measure).toContain("100 sessions");
    expect(sessions?.status).toBe("not met");
  });

  it("names the benchmark to run for a goal with no figure", () => {
    const goals = evaluateGoals([]);
    expect(goals.every((goal) => goal.status === "not measured")).toBe(true);
    expect(goals.map((goal) => goal.source)).toContain("run first-card");
    const text = formatGoals(goals, true);
    expect(text).toContain("quick sizes");
    expect(text).toContain("[not measured] first card: tool result → view initialized");
  });
});
