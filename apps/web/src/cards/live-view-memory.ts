// What the page remembers of each card for the live view budget: enough to show a paused card's
// stand-in (when it was paused, its height, its last report) and to resume it at the same size;
// and how the budget measures the page (distance from view, focus).
import type { LiveViewMemory } from "./live-view-types";

/** What the page remembers of each card, by instance id. */
export class LiveViewMemories {
  readonly #byCard = new Map<string, LiveViewMemory>();

  /** What is remembered of the card, if anything. */
  get(instanceId: string): LiveViewMemory | undefined {
    return this.#byCard.get(instanceId);
  }

  /** Updates some of what is remembered of the card. */
  remember(instanceId: string, patch: Partial<LiveViewMemory>): void {
    const current = this.#byCard.get(instanceId) ?? {
      pausedAt: null,
      height: null,
      frameHeight: null,
      reportText: null,
    };
    this.#byCard.set(instanceId, { ...current, ...patch });
  }

  /** Forgets the card. */
  delete(instanceId: string): void {
    this.#byCard.delete(instanceId);
  }
}

/**
 * How far an element is from the window's visible area, in pixels: the gap to it when it is out
 * of view; minus the height of its visible part when it is in view, so that of two cards in view
 * the one showing more counts as nearer.
 *
 * @returns a score, lower is nearer; `Infinity` for an element not in the page.
 */
export function distanceFromView(element: Element): number {
  if (!element.isConnected || typeof window === "undefined") return Number.POSITIVE_INFINITY;
  const box = element.getBoundingClientRect();
  if (box.bottom < 0) return -box.bottom;
  if (box.top > window.innerHeight) return box.top - window.innerHeight;
  return -(Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0));
}

/** Whether the element holds the page's focus (the focus is in it or in a frame of it). */
export function focusWithin(element: Element): boolean {
  const active = typeof document === "undefined" ? null : document.activeElement;
  return active !== null && active !== document.body && element.contains(active);
}
