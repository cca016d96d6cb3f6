// A long conversation can hold hundreds of cards; each live view is a frame with its own page,
// scripts and memory. The budget keeps at most `cap` views live in the page: a card goes live
// when it comes near the viewport; when the cap is reached, the live card farthest from view
// that is not in use is paused (its view torn down, a light stand-in of the same height shown in
// its place) to make room. Scrolling back to a paused card makes it live again.
import * as memory from "./live-view-memory";
import * as types from "./live-view-types";
import type { LiveViewControl, LiveViewMemory, LiveViewState } from "./live-view-types";

export { defaultLiveViewCap } from "./live-view-types";

/** How much of a card's last report the page keeps for its stand-in, in characters. */
const reportTextLimit = 2_000;
export type { LiveViewControl, LiveViewMemory, LiveViewState } from "./live-view-types";

interface Member {
  readonly instanceId: string;
  element: Element;
  /** The slot left the page; it is forgotten after this task unless it joins again. */
  leaving: boolean;
  state: LiveViewState;
  near: boolean;
  control: LiveViewControl | null;
}

/**
 * The page's live views: which cards may have their view mounted now, within the cap.
 * Cards join with their element; the page tells the budget when one comes near the viewport
 * ({@link setNear}); a live card's view registers its {@link LiveViewControl}.
 */
export class LiveViewBudget {
  #cap: number;
  readonly #distanceOf: (element: Element) => number;
  readonly #holdsFocus: (element: Element) => boolean;
  readonly #now: () => number;
  readonly #schedule: (step: () => void) => void;
  readonly #members = new Map<string, Member>();
  readonly #memory = new memory.LiveViewMemories();
  readonly #listeners = new Map<string, Set<() => void>>();
  #stepScheduled = false;
  readonly #later: (step: () => void, delayMs: number) => () => void;
  #cancelRecheck: (() => void) | null = null;

  /**
   * @param options - see {@link LiveViewBudgetOptions}.
   * @throws {RangeError} when `cap` is not a positive whole number.
   */
  constructor(options: types.LiveViewBudgetOptions = {}) {
    const cap = options.cap ?? types.defaultLiveViewCap;
    if (!types.isValidLiveViewCap(cap)) {
      throw new RangeError(`The live view cap must be a positive whole number, not ${cap}.`);
    }
    this.#cap = cap;
    this.#distanceOf = options.distanceOf ?? memory.distanceFromView;
    this.#holdsFocus = options.holdsFocus ?? memory.focusWithin;
    this.#now = options.now ?? Date.now;
    this.#schedule = options.schedule ?? ((step) => queueMicrotask(step));
    this.#later = options.later ?? types.runLater;
  }

  /** Most live views at once. */
  get cap(): number {
    return this.#cap;
  }

  /**
   * Changes the cap (the operator's setting arrived); views over a smaller cap are paused as
   * soon as they are not in use. An invalid value is ignored.
   */
  setCap(cap: unknown): void {
    if (!types.isValidLiveViewCap(cap) || cap === this.#cap) return;
    this.#cap = cap;
    this.#scheduleStep();
  }

  /** How many views are mounted now (live or being paused). */
  get liveCount(): number {
    let count = 0;
    for (const member of this.#members.values()) if (occupiesSlot(member.state)) count += 1;
    return count;
  }

  /**
   * A card's slot entered the page.
   *
   * @param element - the slot's element (the same one whether the view or the stand-in shows).
   * @returns a function that takes the card out of the budget.
   */
  join(instanceId: string, element: Element): () => void {
    let member = this.#members.get(instanceId);
    if (member?.leaving === true) {
      // The same card's slot again in the same task (React StrictMode): it keeps its state.
      member.element = element;
      member.leaving = false;
    } else {
      member = {
        instanceId,
        element,
        leaving: false,
        state: this.#memory.get(instanceId)?.pausedAt != null ? "paused" : "standby",
        near: false,
        control: null,
      };
      this.#members.set(instanceId, member);
      this.#notify(member);
    }
    const joined = member;
    return () => {
      if (this.#members.get(instanceId) !== joined) return;
      joined.leaving = true;
      queueMicrotask(() => {
        if (!joined.leaving || this.#members.get(instanceId) !== joined) return;
        this.#members.delete(instanceId);
        this.#scheduleStep();
      });
    };
  }

  /** The card's state now ({@link LiveViewState}); `standby` for an unknown card. */
  stateOf(instanceId: string): LiveViewState {
    return this.#members.get(instanceId)?.state ?? "standby";
  }

  /** What is remembered of the card (see {@link LiveViewMemory}). */
  memoryOf(instanceId: string): LiveViewMemory | undefined {
    return this.#memory.get(instanceId);
  }

  /** Records the text of the card's last report (shown in its stand-in). */
  noteReport(instanceId: string, text: string): void {
    // The stand-in shows the start of it; a long report is not kept whole for every card.
    this.#memory.remember(instanceId, { reportText: text.slice(0, reportTextLimit) });
  }

  /** Forgets what is remembered of a card (it was closed). */
  forget(instanceId: string): void {
    this.#memory.delete(instanceId);
  }

  /**
   * Follows a card's state.
   *
   * @returns a function that stops following it.
   */
  subscribe(instanceId: string, listener: () => void): () => void {
    let listeners = this.#listeners.get(instanceId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(instanceId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(instanceId) === listeners) {
        this.#listeners.delete(instanceId);
      }
    };
  }

  /** The page saw the card come near the viewport, or leave it. */
  setNear(instanceId: string, near: boolean): void {
    const member = this.#members.get(instanceId);
    if (member === undefined || member.near === near) return;
    member.near = near;
    if (!near && member.state === "waiting") {
      this.#set(member, this.#memory.get(instanceId)?.pausedAt != null ? "paused" : "standby");
    }
    this.#scheduleStep();
  }

  /**
   * The card's view is mounted and controllable (or went away: `null`).
   *
   * @returns a function that unregisters this control.
   */
  bindView(instanceId: string, control: LiveViewControl | null): () => void {
    const member = this.#members.get(instanceId);
    if (member === undefined) return () => undefined;
    member.control = control;
    return () => {
      if (member.control === control) member.control = null;
    };
  }

  #set(member: Member, state: LiveViewState): void {
    if (member.state === state) return;
    member.state = state;
    this.#notify(member);
  }

  #notify(member: Member): void {
    for (const listener of [...(this.#listeners.get(member.instanceId) ?? [])]) listener();
  }

  #scheduleStep(): void {
    if (this.#stepScheduled) return;
    this.#stepScheduled = true;
    this.#schedule(() => {
      this.#stepScheduled = false;
      this.#balance();
    });
  }

  /**
   * Gives free slots to the waiting cards nearest to view; when none is free, pauses the live
   * card farthest from view that is not in use, if it is farther than the card that waits.
   * Over the cap (a smaller cap arrived), pauses cards not in use until within it.
   */
  #balance(): void {
    const members = [...this.#members.values()].filter((member) => member.element.isConnected);
    const distances = new Map<Member, number>();
    const distance = (member: Member) => {
      let known = distances.get(member);
      if (known === undefined) {
        known = this.#distanceOf(member.element);
        distances.set(member, known);
      }
      return known;
    };
    const candidates = members
      .filter((member) => member.near && canWait(member.state))
      .sort((first, second) => distance(first) - distance(second));
    let occupied = members.filter((member) => occupiesSlot(member.state)).length;
    let unserved = false;
    for (const candidate of candidates) {
      if (occupied < this.#cap) {
        this.#set(candidate, "live");
        occupied += 1;
        continue;
      }
      // A paused card keeps saying when it was paused while it waits for a slot.
      if (candidate.state === "standby") this.#set(candidate, "waiting");
      const victim = this.#farthestIdle(members, distance);
      if (victim === null || distance(victim) <= distance(candidate)) {
        unserved = true;
        continue;
      }
      void this.#pause(victim);
    }
    // A cap lowered below the live count: the farthest idle cards go.
    let over = occupied - this.#cap;
    while (over > 0) {
      const victim = this.#farthestIdle(members, distance);
      if (victim === null) break;
      void this.#pause(victim);
      over -= 1;
    }
    this.#cancelRecheck?.();
    this.#cancelRecheck = null;
    if (unserved || over > 0) {
      this.#cancelRecheck = this.#later(() => {
        this.#cancelRecheck = null;
        this.#scheduleStep();
      }, types.waitingRecheckMs);
    }
  }

  #farthestIdle(members: Member[], distance: (member: Member) => number): Member | null {
    let farthest: Member | null = null;
    for (const member of members) {
      if (member.state !== "live" || member.control === null) continue;
      if (this.#holdsFocus(member.element) || member.control.inUse()) continue;
      if (farthest === null || distance(member) > distance(farthest)) farthest = member;
    }
    return farthest;
  }

  async #pause(member: Member): Promise<void> {
    const control = member.control;
    if (control === null || member.state !== "live") return;
    this.#set(member, "pausing");
    const height = member.element.getBoundingClientRect().height;
    const frame = member.element.querySelector("iframe");
    const frameHeight = frame === null ? null : frame.getBoundingClientRect().height;
    await control.pause().catch(() => undefined);
    this.#memory.remember(member.instanceId, {
      pausedAt: this.#now(),
      height: height > 0 ? height : null,
      frameHeight: frameHeight !== null && frameHeight > 0 ? frameHeight : null,
    });
    if (member.control === control) member.control = null;
    // The slot may have left the page meanwhile; a new slot of the same card starts paused.
    this.#set(member, "paused");
    this.#scheduleStep();
  }
}

function occupiesSlot(state: LiveViewState): boolean {
  return state === "live" || state === "pausing";
}

function canWait(state: LiveViewState): boolean {
  return state === "standby" || state === "waiting" || state === "paused";
}

/** The page's live views. */
export const pageLiveViews = new LiveViewBudget();
