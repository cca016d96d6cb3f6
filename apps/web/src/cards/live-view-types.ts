// The live view budget's vocabulary: the states of a card, what a live card's view hands the
// budget, and the budget's options.

/** How many card views are live at once unless the operator chose another number. */
export const defaultLiveViewCap = 12;

/**
 * Where a card is in the budget: `standby` (never live yet, a stand-in shows), `waiting` (near
 * the viewport, for a slot), `live` (its view is mounted), `pausing` (its view is being torn
 * down to free a slot; it still counts as live), `paused` (torn down; the stand-in shows).
 */
export type LiveViewState = "standby" | "waiting" | "live" | "pausing" | "paused";

/** What a live card's view tells the budget. */
export interface LiveViewControl {
  /** Whether the card is in use and must not be paused (a call, a question, full screen...). */
  inUse(): boolean;
  /** Tears the view down (`ui/resource-teardown`, bounded wait); resolves when it is done. */
  pause(): Promise<void>;
}

/** Options of a {@link LiveViewBudget}. */
export interface LiveViewBudgetOptions {
  /** Most live views at once; default {@link defaultLiveViewCap}. */
  cap?: number;
  /** How far an element is from view, lower is nearer (default `distanceFromView`). */
  distanceOf?: (element: Element) => number;
  /** Whether the element holds the page's focus. */
  holdsFocus?: (element: Element) => boolean;
  now?: () => number;
  /** Runs the budget's next step soon; default `queueMicrotask`. */
  schedule?: (step: () => void) => void;
  /**
   * Runs a step later, to look again while a card near the view waits for a slot that cards in
   * use hold (a card stops being in use without telling the budget: its call is answered, the
   * person clicks elsewhere); default `setTimeout`. Returns a function that cancels it.
   */
  later?: (step: () => void, delayMs: number) => () => void;
}

/** How often the budget looks again while a card near the view waits for a slot, in ms. */
export const waitingRecheckMs = 500;

/** What the page remembers of a card to show in its stand-in and to resume it. */
export interface LiveViewMemory {
  /** When the card was last paused (ms since the epoch), or null if it never was. */
  pausedAt: number | null;
  /** The card's height when it was paused (the stand-in keeps it), in pixels. */
  height: number | null;
  /** The frame's height when it was paused, given to the view again when it resumes. */
  frameHeight: number | null;
  /** The text of the view's last `ui/update-model-context`, or null. */
  reportText: string | null;
}

/** Checks a cap: a whole number of at least 1. */
export function isValidLiveViewCap(cap: unknown): cap is number {
  return typeof cap === "number" && Number.isInteger(cap) && cap >= 1;
}

/** Runs a step after a delay with `setTimeout`; returns a function that cancels it. */
export function runLater(step: () => void, delayMs: number): () => void {
  const timer = setTimeout(step, delayMs);
  return () => clearTimeout(timer);
}
