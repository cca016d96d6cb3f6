import type { PageCallRate } from "../page-calls-config";
import type {
  PageLimitDecision,
  PageLimits,
  PageLimitScope,
  PageRequestKind,
  PageRequestOrigin,
} from "../session/session-services";
import { RateLimiter, type RateDecision } from "./rate-limit";

/** The three budgets of every kind: one card, all cards of one source, all cards of a session. */
export interface PageRequestRates {
  card: PageCallRate;
  source: PageCallRate;
  session: PageCallRate;
}

/** What each kind is doing, said of one app and of several. */
const doing: Record<PageRequestKind, { one: string; many: string }> = {
  tools: { one: "calling its tools", many: "calling their tools" },
  resources: { one: "reading its resources", many: "reading their resources" },
  context: { one: "updating what the model is told", many: "updating what the model is told" },
  messages: { one: "sending messages", many: "sending messages" },
  logs: { one: "writing to the log", many: "writing to the log" },
};

/**
 * The sentence a page reads when a budget refused it: which apps were slowed down (this one,
 * those of its server, or all of the session's) and that trying again later works.
 *
 * @param kind - the request's kind.
 * @param scope - the budget that refused it.
 * @param source - the card's source, named when its budget refused.
 */
export function pageLimitMessage(
  kind: PageRequestKind,
  scope: PageLimitScope,
  source: string,
): string {
  if (scope === "card") {
    return `This app is ${doing[kind].one} too often; it was slowed down. Try again in a moment.`;
  }
  const who =
    scope === "source"
      ? `The apps of the server "${source}" are`
      : "The apps open in this session are";
  return `${who} ${doing[kind].many} too often; they were slowed down. Try again in a moment.`;
}

/** How much more than one card's budget its source's and its session's are, by default. */
const SOURCE_BUDGET_FACTOR = 2;
const SESSION_BUDGET_FACTOR = 4;

/**
 * The three tiers from one card's budget, the source's and the session's set or derived from it
 * (twice and four times the card's), so a raised card budget raises the others with it.
 */
export function pageRequestRates(
  card: PageCallRate,
  overrides: { source?: PageCallRate | undefined; session?: PageCallRate | undefined } = {},
): PageRequestRates {
  const scaled = (factor: number): PageCallRate => ({
    perSecond: card.perSecond * factor,
    burst: card.burst * factor,
  });
  return {
    card,
    source: overrides.source ?? scaled(SOURCE_BUDGET_FACTOR),
    session: overrides.session ?? scaled(SESSION_BUDGET_FACTOR),
  };
}

/**
 * The rate budgets of every page request, shared by the sessions of a node: a token bucket per
 * card, per source of a session and per session, for each {@link PageRequestKind}. A request
 * passes when all three of its kind have a token, and then spends one of each; a refused request
 * spends none. Six cards of one server therefore share their server's budget, and no number of
 * servers gets a session past its own.
 */
export class PageRequestLimits implements PageLimits {
  readonly #card: RateLimiter;
  readonly #source: RateLimiter;
  readonly #session: RateLimiter;

  /**
   * @param rates - the three tiers' budgets.
   * @param now - the clock in ms (tests inject one).
   * @throws {RangeError} when a rate or burst is not positive.
   */
  constructor(rates: PageRequestRates, now?: () => number) {
    const limiter = (rate: PageCallRate) =>
      new RateLimiter({ ratePerSecond: rate.perSecond, burst: rate.burst, now });
    this.#card = limiter(rates.card);
    this.#source = limiter(rates.source);
    this.#session = limiter(rates.session);
  }

  /**
   * Spends one request of a kind from its card's, source's and session's budgets, or none.
   *
   * @returns ok, or the narrowest budget that refused, how long until it would pass, and the
   *   sentence for the page.
   */
  take(kind: PageRequestKind, origin: PageRequestOrigin): PageLimitDecision {
    const session = `${kind}\u0000${origin.userId}\u0000${origin.sessionId}`;
    const tiers: [PageLimitScope, RateLimiter, string][] = [
      ["card", this.#card, `${kind}\u0000${origin.userId}\u0000${origin.instanceId}`],
      ["source", this.#source, `${session}\u0000${origin.source}`],
      ["session", this.#session, session],
    ];
    for (const [scope, limiter, key] of tiers) {
      const decision: RateDecision = limiter.peek(key);
      if (!decision.ok) {
        return {
          ok: false,
          scope,
          retryAfterMs: decision.retryAfterMs,
          message: pageLimitMessage(kind, scope, origin.source),
        };
      }
    }
    for (const [, limiter, key] of tiers) limiter.take(key);
    return { ok: true };
  }
}
