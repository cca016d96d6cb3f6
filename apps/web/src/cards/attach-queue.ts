// Reopening a conversation mounts all its cards in one go. If each sent `card:attach` at once,
// the page would be busy starting the first views while the later acknowledgements waited, and
// their acknowledgement timeouts (started at the send) would run out: with 200 cards most failed.
// The queue lets a few cards attach at a time, those near the viewport first, then in document
// order; a card's acknowledgement timeout starts only when its request is sent.

import { isNearViewport } from "./near-viewport";

/** How many cards of the page attach at the same time. */
export const attachConcurrency = 4;

/** Bits of `Node.compareDocumentPosition` (named here: the queue's tests need no DOM globals). */
const documentPositionDisconnected = 1;
const documentPositionFollowing = 4;

/** A card's place in the {@link AttachQueue}. */
export interface AttachTicket {
  /**
   * Resolves `true` when the card may send its attach, `false` when it left the queue
   * ({@link release}) before its turn.
   */
  readonly granted: Promise<boolean>;
  /** Whether the card still waits for its turn. */
  readonly waiting: boolean;
  /** Tells the queue whether the card is near the viewport (near cards go first). */
  setNearViewport(near: boolean): void;
  /** Gives the slot back, or leaves the queue while waiting; later calls do nothing. */
  release(): void;
}

/** Options of an {@link AttachQueue}. */
export interface AttachQueueOptions {
  /** Most cards holding a slot at once; default {@link attachConcurrency}. */
  concurrency?: number;
  /**
   * Whether an element is near the viewport, asked once per card when the queue first compares
   * it and the card has not been told yet ({@link AttachTicket.setNearViewport}); default: no.
   */
  isNearViewport?: (element: Element) => boolean;
  /**
   * Runs the queue's next step soon; default `queueMicrotask`. Cards mounted by the same render
   * all enter before the first turn is given, so the first turns go to the best placed cards.
   */
  schedule?: (step: () => void) => void;
}

interface QueueEntry {
  readonly element: Element | null;
  /** Order of entry: the tie-break when the elements cannot be compared. */
  readonly sequence: number;
  near: boolean | null;
  state: "waiting" | "active" | "done";
  readonly resolve: (granted: boolean) => void;
}

/**
 * A concurrency limit with a priority order for the cards' attaches: at most `concurrency`
 * tickets hold a slot; a freed slot goes to the waiting card near the viewport that comes first in
 * the document, else to the first waiting card in the document.
 */
export class AttachQueue {
  readonly #concurrency: number;
  readonly #isNearViewport: (element: Element) => boolean;
  readonly #schedule: (step: () => void) => void;
  readonly #waiting: QueueEntry[] = [];
  #active = 0;
  #sequence = 0;
  #stepScheduled = false;

  /**
   * @param options - see {@link AttachQueueOptions}.
   * @throws {RangeError} when `concurrency` is not a positive whole number.
   */
  constructor(options: AttachQueueOptions = {}) {
    const concurrency = options.concurrency ?? attachConcurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(
        `The attach concurrency must be a positive whole number, not ${concurrency}.`,
      );
    }
    this.#concurrency = concurrency;
    this.#isNearViewport = options.isNearViewport ?? (() => false);
    // Wrapped: browsers throw "Illegal invocation" when queueMicrotask is called as a method.
    this.#schedule = options.schedule ?? ((step) => queueMicrotask(step));
  }

  /** How many tickets hold a slot now. */
  get activeCount(): number {
    return this.#active;
  }

  /** How many tickets wait for a slot now. */
  get waitingCount(): number {
    return this.#waiting.length;
  }

  /**
   * Puts a card in the queue. Its turn comes at the queue's next step at the earliest, even when
   * a slot is free now.
   *
   * @param element - the card's element, for the document order and the viewport; null: last,
   *   in order of entry.
   * @returns the card's ticket; call its `release()` when the attach is done or the card goes.
   */
  enter(element: Element | null): AttachTicket {
    let resolve: (granted: boolean) => void = () => undefined;
    const granted = new Promise<boolean>((settle) => (resolve = settle));
    const entry: QueueEntry = {
      element,
      sequence: this.#sequence++,
      near: null,
      state: "waiting",
      resolve,
    };
    this.#waiting.push(entry);
    this.#scheduleStep();
    return {
      granted,
      get waiting() {
        return entry.state === "waiting";
      },
      setNearViewport: (near) => {
        entry.near = near;
      },
      release: () => this.#release(entry),
    };
  }

  #release(entry: QueueEntry): void {
    if (entry.state === "done") return;
    if (entry.state === "waiting") {
      const index = this.#waiting.indexOf(entry);
      if (index >= 0) this.#waiting.splice(index, 1);
      entry.state = "done";
      entry.resolve(false);
      return;
    }
    entry.state = "done";
    this.#active -= 1;
    this.#scheduleStep();
  }

  #scheduleStep(): void {
    if (this.#stepScheduled) return;
    this.#stepScheduled = true;
    this.#schedule(() => {
      this.#stepScheduled = false;
      this.#grant();
    });
  }

  #grant(): void {
    while (this.#active < this.#concurrency && this.#waiting.length > 0) {
      let bestIndex = 0;
      for (let index = 1; index < this.#waiting.length; index += 1) {
        const candidate = this.#waiting[index];
        const best = this.#waiting[bestIndex];
        if (candidate !== undefined && best !== undefined && this.#goesBefore(candidate, best)) {
          bestIndex = index;
        }
      }
      const [next] = this.#waiting.splice(bestIndex, 1);
      if (next === undefined) return;
      next.state = "active";
      this.#active += 1;
      next.resolve(true);
    }
  }

  #nearness(entry: QueueEntry): boolean {
    if (entry.near === null) {
      entry.near = entry.element !== null && this.#isNearViewport(entry.element);
    }
    return entry.near;
  }

  #goesBefore(candidate: QueueEntry, best: QueueEntry): boolean {
    const candidateNear = this.#nearness(candidate);
    if (candidateNear !== this.#nearness(best)) return candidateNear;
    if (candidate.element !== null && best.element !== null) {
      const position = best.element.compareDocumentPosition(candidate.element);
      if ((position & documentPositionDisconnected) === 0 && position !== 0) {
        // `best` is followed by `candidate`: the candidate comes later in the document.
        return (position & documentPositionFollowing) === 0;
      }
    } else if (candidate.element !== null || best.element !== null) {
      return candidate.element !== null;
    }
    return candidate.sequence < best.sequence;
  }
}

/** The page's attach queue: every card of the page takes its turn here. */
export const pageAttachQueue = new AttachQueue({ isNearViewport });
