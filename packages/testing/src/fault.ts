import type { RequestView } from "./request-view";

/**
 * A failure the stand-in plays instead of, or in the middle of, a normal reply.
 *
 * Event counts (`afterEvents`, `atEvent`) count SSE events of the planned stream from 0, pings and
 * `[DONE]` included; when left out they default to half the stream (rounded down), which for a
 * text reply falls after the first text pieces. On a non-streaming request a stream fault sends
 * the headers and then: `stall` nothing more; `cut` and `stream-error` half the body and a cut;
 * `no-finish` and `malformed` half the body and a clean end (JSON that does not parse).
 */
export type Fault =
  /** An HTTP error answer with the API's real body: 401, 429 (with `retry-after`), 500, 503, 529… */
  | {
      readonly kind: "http";
      readonly status: number;
      /** Sent as `retry-after` (seconds); 429 sends 1 when left out. */
      readonly retryAfterSeconds?: number;
      /**
       * The body of the API's answer for an account without money, with this status: Anthropic's
       * `invalid_request_error` "Your credit balance is too low…" (the real API sends it with
       * 400), OpenAI's `insufficient_quota` (sent with 429).
       */
      readonly reason?: "out-of-credit";
    }
  /** The socket is destroyed after this many events (a network cut mid-stream). */
  | { readonly kind: "cut"; readonly afterEvents?: number }
  /** The stream ends cleanly but without its finish events (see the README per API). */
  | { readonly kind: "no-finish" }
  /** The event at this index carries invalid JSON in its `data:`; the rest follows normally. */
  | { readonly kind: "malformed"; readonly atEvent?: number }
  /**
   * The API's in-stream error event after this many events, then the stream ends. `variant`
   * picks the Responses API event: `error` (default) or `response.failed`.
   */
  | {
      readonly kind: "stream-error";
      readonly afterEvents?: number;
      readonly variant?: "error" | "response.failed";
    }
  /** Some events, then nothing: the socket stays open until the client aborts or `close()`. */
  | { readonly kind: "stall"; readonly afterEvents?: number };

/** Which requests an injected fault applies to, and how many times. */
export interface FaultTarget {
  /** Only requests whose view matches; default every request. */
  readonly when?: (view: RequestView) => boolean;
  /** How many matching requests get the fault; default 1. `Infinity` for all of them. */
  readonly times?: number;
}

interface ScheduledFault {
  readonly fault: Fault;
  readonly when: (view: RequestView) => boolean;
  remaining: number;
}

/** Faults waiting for the requests they target, in the order they were injected. */
export class FaultSchedule {
  readonly #scheduled: ScheduledFault[] = [];

  /** Adds a fault for the next matching request(s). */
  add(fault: Fault, target: FaultTarget = {}): void {
    const times = target.times ?? 1;
    if (!(times > 0)) throw new RangeError("times must be a positive number (or Infinity)");
    this.#scheduled.push({ fault, when: target.when ?? (() => true), remaining: times });
  }

  /** @returns the first scheduled fault this request matches (using one of its times), if any. */
  take(view: RequestView): Fault | undefined {
    const index = this.#scheduled.findIndex((scheduled) => scheduled.when(view));
    const scheduled = this.#scheduled[index];
    if (scheduled === undefined) return undefined;
    scheduled.remaining -= 1;
    if (scheduled.remaining <= 0) this.#scheduled.splice(index, 1);
    return scheduled.fault;
  }
}
