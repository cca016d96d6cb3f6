// What every part of one card's controller shares: its options, its shown state in the page's
// store, its log, whether it is being torn down, and the current load of its view.
import type { CardCallbacks, CardControllerOptions } from "../card-controller-options";
import {
  initialCardViewState,
  type CardLogEntry,
  type CardViewAccess,
  type CardViewState,
} from "../../state/types/card-view-state";
import {
  hasPageCard,
  isCurrentPageCard,
  unregisterPageCard,
  type PageCard,
} from "../../state/page-cards";
import { globalTimers, type TimerFunctions } from "../teardown-with-timeout";
import type { ViewLoad } from "./view-load";

/**
 * The shared core of one card's controller: the parts (lifecycle, consent, presentation) each
 * hold it and nothing of each other, so they write the card's shown state one way.
 */
export class CardCore {
  readonly instanceId: string;
  readonly options: CardControllerOptions;
  readonly timers: TimerFunctions;
  readonly now: () => number;
  /** The current load of the view; replaced when the view is loaded again. */
  view: ViewLoad;
  readonly #owner: PageCard;
  readonly #store: CardViewAccess;
  #disposed = false;

  /**
   * @param owner - the card's controller, as the page's registry knows it (`page-cards.ts`).
   * @param store - where the card's shown state lives.
   * @param createView - makes the first load of the view (it holds what the view is sent).
   */
  constructor(
    owner: PageCard,
    options: CardControllerOptions,
    store: CardViewAccess,
    createView: (core: CardCore) => ViewLoad,
  ) {
    this.#owner = owner;
    this.instanceId = owner.instanceId;
    this.options = options;
    this.#store = store;
    this.timers = options.timers ?? globalTimers;
    this.now = options.now ?? Date.now;
    this.view = createView(this);
  }

  /** Whether the card is being torn down or is gone: nothing new starts. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** The card's teardown began. */
  markDisposed(): void {
    this.#disposed = true;
  }

  /** The card's shown state, if the page holds it. */
  get shown(): CardViewState | undefined {
    return this.#store.get(this.instanceId);
  }

  /**
   * Creates the card's shown state: closed with the reason when it is closed from the start;
   * a resumed card's log says when it was paused.
   */
  showStart(closedBecause: string | null, frameHeight: number): void {
    const state = initialCardViewState();
    state.frameHeight = frameHeight;
    if (closedBecause !== null) {
      state.status = "closed";
      state.error = closedBecause;
    }
    this.#store.put(this.instanceId, state);
    const resume = this.options.resume;
    if (resume == null) return;
    const at = new Date(resume.pausedAt).toLocaleTimeString([], {
      hour: "2-digit",
      minute: "2-digit",
    });
    this.hostLog(
      "info",
      `The app was paused at ${at} while out of view, and opened again from its saved result.`,
    );
  }

  /** Changes some fields of the card's shown state. */
  patch(patch: Partial<CardViewState>): void {
    // A replaced controller (same instance id, newer mount) must not overwrite the new state.
    if (isCurrentPageCard(this.#owner)) this.#store.patch(this.instanceId, patch);
  }

  /** Adds a line to the card's log and tells the page. */
  appendLog(entry: CardLogEntry): void {
    if (isCurrentPageCard(this.#owner)) this.#store.appendLog(this.instanceId, entry);
    this.callbacks().onLog?.(this.instanceId, entry);
  }

  /** Adds one of the host's own notes to the card's log. */
  hostLog(level: CardLogEntry["level"], text: string): void {
    this.appendLog({ at: this.now(), origin: "host", level, data: text });
  }

  /** The page's current callbacks. */
  callbacks(): CardCallbacks {
    return this.options.callbacks();
  }

  /** The card leaves the page's registry of running cards (if it is still the one there). */
  unregister(): void {
    unregisterPageCard(this.#owner);
  }

  /** Leaves the registry and forgets the shown state, unless a newer mount of the card holds it. */
  forget(): void {
    this.unregister();
    if (!hasPageCard(this.instanceId)) this.#store.remove(this.instanceId);
  }
}
