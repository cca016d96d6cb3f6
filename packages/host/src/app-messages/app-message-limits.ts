// How often an app may speak as the person. In `submit` mode a card's `ui/message` runs a turn
// exactly as if the person had sent it, so a view could run turn after turn
// without anyone typing. Two bounds: one app message in flight per chat (a chat that is
// answering takes no app message; it is refused, not queued, so the app learns at once), and a
// token bucket per card.
import { RateLimiter } from "../page-calls/rate-limit";

/** How many messages a card may submit at once before it is slowed down. */
export const APP_MESSAGE_BURST = 5;

/** After the burst, a card may submit one message per this many ms. */
export const APP_MESSAGE_INTERVAL_MS = 10_000;

/** What the app hears when the chat is answering. */
export const APP_MESSAGE_BUSY =
  "The chat is still answering, so the app's message was not sent; the app may send it again once the reply is done.";

/** What the app hears when it submitted too often. */
function appMessageRateMessage(intervalMs: number): string {
  return `This app sent too many messages in a short time; it may send the next in ${Math.ceil(intervalMs / 1000)} s.`;
}

/** Options of {@link AppMessageLimits}. */
export interface AppMessageLimitsOptions {
  /** The clock, in ms (the session's). */
  now: () => number;
  /** Default {@link APP_MESSAGE_BURST}. */
  burst?: number;
  /** Default {@link APP_MESSAGE_INTERVAL_MS}. */
  intervalMs?: number;
}

/** The answer of {@link AppMessageLimits.take}. */
export type AppMessageAllowance =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: "busy" | "rate_limited"; readonly reason: string };

/**
 * The bounds on the messages cards submit in one session: refuses a message while its chat is
 * answering, and one beyond a card's budget ({@link APP_MESSAGE_BURST} at once, then one per
 * {@link APP_MESSAGE_INTERVAL_MS}).
 */
export class AppMessageLimits {
  readonly #limiter: RateLimiter;
  readonly #intervalMs: number;

  /**
   * @param options - the clock, and the burst and interval (defaults above).
   * @throws {RangeError} when the burst or the interval is not positive.
   */
  constructor(options: AppMessageLimitsOptions) {
    this.#intervalMs = options.intervalMs ?? APP_MESSAGE_INTERVAL_MS;
    if (!(this.#intervalMs > 0)) throw new RangeError("The interval must be positive.");
    this.#limiter = new RateLimiter({
      burst: options.burst ?? APP_MESSAGE_BURST,
      ratePerSecond: 1000 / this.#intervalMs,
      now: options.now,
    });
  }

  /**
   * Decides whether a card may submit a message now, and spends from its budget when it may. A
   * refused message spends nothing.
   *
   * @param instanceId - the card.
   * @param chatAnswering - whether the card's chat is running a turn.
   * @returns ok, or the refusal with its reason for the app.
   */
  take(instanceId: string, chatAnswering: boolean): AppMessageAllowance {
    if (chatAnswering) return { ok: false, code: "busy", reason: APP_MESSAGE_BUSY };
    const decision = this.#limiter.take(instanceId);
    if (decision.ok) return { ok: true };
    return {
      ok: false,
      code: "rate_limited",
      reason: appMessageRateMessage(Math.max(decision.retryAfterMs, 1)),
    };
  }

  /** Forgets a card's budget (it closed). */
  forget(instanceId: string): void {
    this.#limiter.forget(instanceId);
  }
}
