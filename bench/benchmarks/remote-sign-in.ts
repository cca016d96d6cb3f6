// Remote servers people sign in to with their own account (OAuth), two promises:
// A. a remote tool call, once connected, costs at most 1 ms more than the same call with the
//    operator's static `Authorization: Bearer` header. Both calls go to the same protected MCP
//    server with a token of the same authorization server, from the same host, interleaved; only
//    the host's path differs (the person's bearer: the sealed grant read, its expiry checked, vs
//    a header fixed in the config).
// B. when a person's access token expires while many sessions of theirs use the server, one
//    refresh serves them all: 100 sessions (10 quick) call at once, right after the host's clock
//    moved past the token's expiry (each bearer refreshes before sending), and right after the
//    server's clock moved past it (each request is answered 401 and refreshed on the answer). The
//    authorization server must see exactly one `refresh_token` request per burst (the run fails
//    otherwise: a second refresh would spend a rotated refresh token and end the grant). The
//    same burst with a fresh token is their baseline.
//
// The call is `card:call-tool` from a Node socket.io client on a card of `whoami` (the gate, the
// audit row, the source, the server), not a model turn: a turn's own work would bury a difference
// of a fraction of a millisecond. The host runs in this process (`createHostServer`), not as the
// program: its clock is an embedding option, and moving it is how a token expires without
// waiting. Both paths share that process, so the difference is the bearer's alone.
import { performance } from "node:perf_hooks";
import type { SocketTestClient } from "@mcp-chat-host/host/testing";
import type { CardDescriptor } from "@mcp-chat-host/protocol";
import { BenchFailure, type BenchOptions, type BenchResult } from "../lib/bench-result";
import { interleaveTimings, summarize } from "../lib/stats";
import {
  SOURCES,
  callWhoami,
  openTab,
  openWhoamiCard,
  signInThroughHost,
  startOAuthBenchWorld,
  waitForState,
} from "../fixtures/oauth-host";

const LABELS = {
  staticHeader: "static Authorization header (baseline)",
  signedIn: "signed in with OAuth (the person's bearer)",
  fresh: "burst, token fresh (baseline)",
  expired: "burst, token expired: one refresh",
  refused: "burst, token refused (401): one refresh",
} as const;

/** How far the host's clock moves for a token of 600 s to be spent. */
const PAST_EXPIRY_MS = 20 * 60_000;
/** How far ahead the MCP server's clock runs: past a 60 s token, not a 600 s one. */
const SERVER_AHEAD_MS = 2 * 60_000;

function rounded(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Part A: one person's call through both paths, interleaved. */
async function callOverhead(quick: boolean): Promise<BenchResult> {
  const world = await startOAuthBenchWorld();
  let tab: SocketTestClient | undefined;
  try {
    tab = await openTab(world, "ada", "tab-ada");
    const client = tab;
    await waitForState(client, SOURCES.staticHeader, "connected");
    await signInThroughHost(client, "ada");
    const cards = {
      signedIn: await openWhoamiCard(client, SOURCES.signedIn),
      staticHeader: await openWhoamiCard(client, SOURCES.staticHeader),
    };
    const samples = await interleaveTimings(
      [
        { label: LABELS.staticHeader, run: () => callWhoami(client, cards.staticHeader, "ada") },
        { label: LABELS.signedIn, run: () => callWhoami(client, cards.signedIn, "ada") },
      ],
      {
        warmup: quick ? 3 : 20,
        iterations: quick ? 20 : 500,
        maxMs: quick ? 20_000 : 120_000,
      },
    );
    const staticSamples = samples.get(LABELS.staticHeader) ?? [];
    const signedInSamples = samples.get(LABELS.signedIn) ?? [];
    const baseline = summarize(LABELS.staticHeader, staticSamples);
    const subject = summarize(LABELS.signedIn, signedInSamples);
    subject.extra = {
      ...subject.extra,
      "added median ms": rounded(subject.median - baseline.median),
      "added p99 ms": rounded(subject.p99 - baseline.p99),
    };
    return {
      name: "remote-sign-in/call",
      unit: "ms",
      rows: [baseline, subject],
      ratios: {
        "signed in − static header (median, ms)": rounded(subject.median - baseline.median),
      },
      notes: [
        "One sample is one `card:call-tool` of `whoami` from a Node socket.io client, on a card of each source, the two interleaved call by call (the order rotating).",
        "Both sources are the same protected MCP server (Streamable HTTP on 127.0.0.1, JWT checked against the JWKS, audience and expiry) with a token of the same authorization server: `static` sends one obtained once through the SDK as a header of the config, `notes` the person's sealed grant through the host's bearer.",
        "The host (createHostServer, SQLite, the offline model, page calls unthrottled), the servers and the client share this process.",
      ],
    };
  } finally {
    tab?.close();
    await world.close();
  }
}

/** Every tab calls at once; the time until the last answer, in ms. */
async function burst(
  tabs: readonly { client: SocketTestClient; card: CardDescriptor }[],
): Promise<number> {
  const started = performance.now();
  await Promise.all(tabs.map(({ client, card }) => callWhoami(client, card, "bob")));
  return performance.now() - started;
}

/** The bursts of part B, by kind: their times and the refresh requests each made. */
interface Bursts {
  fresh: number[];
  expired: number[];
  refused: number[];
  expiredRefreshes: number[];
  refusedRefreshes: number[];
  /** The server's refusals of a spent token during the refused bursts. */
  refusals: number[];
}

function refreshExtra(
  sessions: number,
  counts: readonly number[],
): Record<string, number | string> {
  return {
    sessions,
    "refresh requests, fewest in a burst": counts.length === 0 ? Number.NaN : Math.min(...counts),
    "refresh requests, most in a burst": counts.length === 0 ? Number.NaN : Math.max(...counts),
    "refresh requests, each burst": counts.join(" "),
  };
}

function refreshResult(sessions: number, bursts: Bursts): BenchResult {
  return {
    name: `remote-sign-in-refresh/${sessions}`,
    unit: "ms",
    rows: [
      summarize(LABELS.fresh, bursts.fresh, { sessions, "token requests": 0 }),
      summarize(LABELS.expired, bursts.expired, refreshExtra(sessions, bursts.expiredRefreshes)),
      summarize(LABELS.refused, bursts.refused, {
        ...refreshExtra(sessions, bursts.refusedRefreshes),
        "401s for the spent token, each burst": bursts.refusals.join(" "),
      }),
    ],
    notes: [
      `One sample is one burst: ${sessions} sessions (tabs) of one person, each with its own connection to the server, call whoami from a card at once; the time is until the last answer.`,
      "Expired: the host's clock moves 20 minutes first (the servers' do not), so every bearer finds its token spent and refreshes before sending. Refused: the host holds a token of 60 s as fresh while the MCP server's clock runs 2 minutes ahead, so every session's request is answered 401 and refreshed on that answer.",
      "The authorization server's refresh_token requests are counted; exactly one per expired or refused burst, and none in a fresh one, is the promise (the run fails otherwise).",
    ],
  };
}

/** Part B: many sessions of one person, a token that expires, one refresh. */
async function refreshUnderLoad(quick: boolean): Promise<BenchResult> {
  const sessions = quick ? 10 : 100;
  const rounds = quick ? 2 : 5;
  const world = await startOAuthBenchWorld();
  const tabs: { client: SocketTestClient; card: CardDescriptor }[] = [];
  const clients: SocketTestClient[] = [];
  const bursts: Bursts = {
    fresh: [],
    expired: [],
    refused: [],
    expiredRefreshes: [],
    refusedRefreshes: [],
    refusals: [],
  };
  const refreshes = () => world.tokenRequests("refresh_token");
  const fail = (message: string): never => {
    throw new BenchFailure(message, [refreshResult(sessions, bursts)]);
  };
  const exactlyOne = (made: number, how: string): void => {
    if (made !== 1) {
      fail(
        `${sessions} sessions of one person made ${made} refresh requests for one ${how} token, not exactly one; check the single flight in packages/host/src/oauth/server-sign-in.ts.`,
      );
    }
  };
  try {
    const first = await openTab(world, "bob", "tab-bob-0");
    clients.push(first);
    await signInThroughHost(first, "bob");
    for (let index = 1; index < sessions; index += 1) {
      clients.push(await openTab(world, "bob", `tab-bob-${index}`));
    }
    for (const client of clients) {
      await waitForState(client, SOURCES.signedIn, "connected");
      tabs.push({ client, card: await openWhoamiCard(client, SOURCES.signedIn) });
    }
    const [firstTab] = tabs;
    if (firstTab === undefined) throw new Error("No tab opened.");
    for (let round = 0; round < rounds; round += 1) {
      let before = refreshes();
      bursts.fresh.push(await burst(tabs));
      if (refreshes() !== before) {
        fail(
          "A burst with a fresh token asked the authorization server for a refresh; a token that is not expiring must be sent as it is.",
        );
      }

      world.shiftClock(PAST_EXPIRY_MS);
      bursts.expired.push(await burst(tabs));
      bursts.expiredRefreshes.push(refreshes() - before);
      exactlyOne(refreshes() - before, "expired");

      // One session refreshes to a token of 60 s (the host holds it as fresh for 30 s); then the
      // server's clock runs 2 minutes ahead, so it refuses that token but not the next one (600 s).
      world.authorization.setAccessTokenTtl(60);
      world.shiftClock(PAST_EXPIRY_MS);
      await callWhoami(firstTab.client, firstTab.card, "bob");
      world.authorization.setAccessTokenTtl(600);
      world.setServerClockAhead(SERVER_AHEAD_MS);
      before = refreshes();
      const rejectedBefore = expiredRefusals(world.notes.rejected);
      bursts.refused.push(await burst(tabs));
      world.setServerClockAhead(0);
      bursts.refusedRefreshes.push(refreshes() - before);
      bursts.refusals.push(expiredRefusals(world.notes.rejected) - rejectedBefore);
      if (bursts.refusals.at(-1) === 0) {
        fail("The server refused no request in a refused burst; the 401 path was not measured.");
      }
      exactlyOne(refreshes() - before, "refused");
    }
    const refused = world.authorization.tokenRequests.filter(
      (request) => request.grantType === "refresh_token" && request.status !== 200,
    );
    if (refused.length > 0) {
      fail(
        `The authorization server refused ${refused.length} refresh requests; every refresh must spend the latest refresh token.`,
      );
    }
    return refreshResult(sessions, bursts);
  } finally {
    for (const client of clients) client.close();
    await world.close();
  }
}

function expiredRefusals(rejected: readonly { reason: string }[]): number {
  return rejected.filter((rejection) => rejection.reason === "expired").length;
}

/**
 * Runs the benchmark.
 *
 * @param options - `quick`: 20 calls per path, 10 sessions and 2 bursts of each kind; else 500
 *   calls per path (stops after 2 min), 100 sessions and 5 bursts of each kind.
 * @returns the call's figures (both paths, the added ms) and the bursts' (times, refresh counts).
 * @throws {BenchFailure} when a burst makes other than exactly one refresh for an expired or
 *   refused token, a fresh one is refreshed, or a refresh is refused.
 */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const call = await callOverhead(options.quick);
  try {
    return [call, await refreshUnderLoad(options.quick)];
  } catch (error) {
    if (error instanceof BenchFailure)
      throw new BenchFailure(error.message, [call, ...error.results]);
    throw error;
  }
}
