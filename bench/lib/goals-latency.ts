// The goals a person feels as waiting (docs/performance.md#goals): reopening a long conversation,
// the views live in it, a page call from Node and from a view, and the first card. Each is read
// from a run's results, against baselines measured in the same run, with their spreads.
import type { BenchResult, GoalRow } from "./bench-result";
import {
  extraWith,
  figure,
  largest,
  missing,
  named,
  plus,
  resultsOf,
  rowWith,
  sizeOf,
  status,
  times,
  verdict,
  withSpread,
} from "./goal-figures";
import { formatFigure } from "./report";

/** The most views a page keeps live by default (`host.liveViews`). */
const DEFAULT_LIVE_VIEWS = 12;

/** How much a view's page call may add over the two floors it cannot avoid, in ms. */
const VIEW_CALL_MARGIN_MS = 0.5;

/** How many times the server floor the Node socket path may take. */
const SERVER_PATH_FACTOR = 2;

/** How much the first card may add over a bare iframe with an AppBridge, in ms. */
const FIRST_CARD_MARGIN_MS = 50;

/** Reopening a long conversation in a new tab: the first view in < 1 s, no tool called. */
export function reopenGoal(results: readonly BenchResult[]): GoalRow {
  const measure = "reopen a long conversation in a new tab: the first view, the cards in view";
  const goal = "< 1 s to the first view, and no tool called";
  const result = largest(results, "restore");
  const host = rowWith(result, "host");
  const bare = rowWith(result, "bare");
  const firstView = extraWith(host, "first view ms (median)");
  const firstP25 = extraWith(host, "first view ms p25");
  const firstP75 = extraWith(host, "first view ms p75");
  const toolCalls = extraWith(host, "tool calls");
  if (result === undefined || host === undefined || firstView === undefined) {
    return missing(measure, goal, "restore");
  }
  const firstSpread =
    firstP25 === undefined || firstP75 === undefined
      ? ""
      : ` (p25 ${formatFigure(firstP25)}, p75 ${formatFigure(firstP75)})`;
  return {
    measure: `${measure} (${sizeOf(result)} cards)`,
    baseline: `bare iframes, every view: ${withSpread(bare, "ms")}`,
    now: `first view ${figure(firstView, "ms")}${firstSpread}; in view live ${withSpread(host, "ms")}; ${toolCalls ?? "?"} tool calls`,
    ratio: times(host.median, bare?.median),
    goal,
    // An absolute goal: the bare baseline is shown, not compared, so its noise does not count.
    status: status(true, firstView < 1000 && toolCalls === 0),
    source: result.name,
  };
}

/** The views live at once stay bounded, and the tab's memory flat, as the conversation grows. */
export function liveViewsGoal(results: readonly BenchResult[]): GoalRow {
  const measure = "views live at once in a long conversation";
  const goal = `bounded (at most ${DEFAULT_LIVE_VIEWS}); the tab's memory flat as the conversation grows`;
  const restore = largest(results, "restore");
  const mostLive = extraWith(rowWith(restore, "host"), "most live frames");
  const memory = resultsOf(results, "restore-memory");
  const small = memory[0];
  const big = memory.at(-1);
  if (mostLive === undefined || small === undefined || big === undefined) {
    return missing(measure, goal, "restore");
  }
  const hostSmall = rowWith(small, "host")?.median;
  const hostBig = rowWith(big, "host")?.median;
  const bareBig = rowWith(big, "bare")?.median;
  const flat =
    small !== big && hostSmall !== undefined && hostBig !== undefined && hostBig <= hostSmall * 1.2;
  return {
    measure,
    baseline: `every view live: ${figure(bareBig, "MB")} at ${sizeOf(big)} cards`,
    now:
      small === big
        ? `at most ${mostLive} live; ${figure(hostBig, "MB")} at ${sizeOf(big)} cards`
        : `at most ${mostLive} live; ${figure(hostSmall, "MB")} at ${sizeOf(small)}, ${figure(hostBig, "MB")} at ${sizeOf(big)} cards`,
    ratio: times(hostBig, bareBig),
    goal,
    // One size cannot show memory staying flat: measured, but not met until two sizes ran.
    status: status(true, mostLive <= DEFAULT_LIVE_VIEWS && flat),
    source: memory.map((result) => result.name).join(", "),
  };
}

/**
 * A page call: from Node, at most twice the server floor (a socket.io echo plus the in-process
 * MCP call); from a view, at most the bare iframe echo plus the Node path plus 0.5 ms.
 */
export function pageCallGoals(results: readonly BenchResult[]): GoalRow[] {
  const source = "page-call-round-trip";
  const result = named(largest(results, source), source);
  const inProcess = rowWith(result, "in-process");
  // The app's own process boundary (the host reaches the bench app over stdio), shown beside the
  // floor the goal is set against.
  const stdio = rowWith(result, "over stdio");
  const echo = rowWith(result, "acknowledgement echo");
  const socket = rowWith(result, "node socket.io client");
  const bare = rowWith(result, "bare iframe");
  const chromium = rowWith(result, "chromium view");
  const nodeMeasure = "page call, Node socket.io client → the app (stdio), p50";
  const nodeGoal = `≤ ${SERVER_PATH_FACTOR}× the server floor (socket.io echo + in-process MCP call)`;
  const viewMeasure = "page call from a view in Chromium, p50";
  const viewGoal = `≤ bare iframe echo + Node socket path + ${VIEW_CALL_MARGIN_MS} ms`;
  const rows: GoalRow[] = [];
  if (inProcess === undefined || echo === undefined || socket === undefined) {
    rows.push(missing(nodeMeasure, nodeGoal, source));
  } else {
    const floor = echo.median + inProcess.median;
    const over = stdio === undefined ? "" : `; over stdio, no host: ${withSpread(stdio, "ms")}`;
    rows.push({
      measure: nodeMeasure,
      baseline: `server floor ${figure(floor, "ms")} = socket.io echo ${withSpread(echo, "ms")} + in-process MCP client ${withSpread(inProcess, "ms")}${over}`,
      now: withSpread(socket, "ms"),
      ratio: times(socket.median, floor),
      goal: nodeGoal,
      ...verdict(socket.median <= SERVER_PATH_FACTOR * floor, {
        "the socket.io echo": echo,
        "the in-process MCP client": inProcess,
      }),
      source,
    });
  }
  if (bare === undefined || socket === undefined || chromium === undefined) {
    rows.push(missing(viewMeasure, viewGoal, source));
  } else {
    const floors = bare.median + socket.median;
    rows.push({
      measure: viewMeasure,
      baseline: `${figure(floors, "ms")} = bare iframe echo ${withSpread(bare, "ms")} + Node socket path ${withSpread(socket, "ms")}`,
      now: withSpread(chromium, "ms"),
      ratio: plus(chromium.median, floors, "ms"),
      goal: viewGoal,
      ...verdict(chromium.median <= floors + VIEW_CALL_MARGIN_MS, {
        "the bare iframe echo": bare,
        "the Node socket path": socket,
      }),
      source,
    });
  }
  return rows;
}

/** The first card, tool result to `initialized`: at most a bare iframe + AppBridge + 50 ms. */
export function firstCardGoal(results: readonly BenchResult[]): GoalRow {
  const measure = "first card: tool result → view initialized";
  const goal = `≤ bare iframe + AppBridge + ${FIRST_CARD_MARGIN_MS} ms`;
  const result = named(largest(results, "first-card"), "first-card");
  const host = rowWith(result, "host");
  const bare = rowWith(result, "bare");
  if (host === undefined || bare === undefined) return missing(measure, goal, "first-card");
  return {
    measure,
    baseline: `bare iframe + AppBridge: ${withSpread(bare, "ms")}`,
    now: withSpread(host, "ms"),
    ratio: plus(host.median, bare.median, "ms"),
    goal,
    ...verdict(host.median - bare.median <= FIRST_CARD_MARGIN_MS, {
      "the bare iframe + AppBridge": bare,
    }),
    source: "first-card",
  };
}
