// @vitest-environment jsdom
// Whether a card's slot is near the visible part of its list: a slot shown at the end of a list
// that is at its end (the newest card, as the person reads the latest) is reported near at once,
// without waiting a frame for the observer's first report; anything else is left to the observer
// (a reopened conversation's cards may not have settled where they will be).
import { afterEach, describe, expect, it, vi } from "vitest";
import { shownAtListEnd, watchNearness } from "./live-view-nearness";

function box(top: number, height: number): DOMRect {
  return {
    top,
    bottom: top + height,
    height,
    left: 0,
    right: 100,
    width: 100,
    x: 0,
    y: top,
    toJSON: () => ({}),
  };
}

/** A list 600 px high showing 2,000 px of content, scrolled to `scrollTop`, with a slot at `top`. */
function listWithSlot(
  top: number,
  scrollTop = 1_400,
  height = 200,
): { root: HTMLElement; slot: HTMLElement } {
  const root = document.createElement("div");
  root.setAttribute("data-scroll-root", "");
  const slot = document.createElement("div");
  root.appendChild(slot);
  document.body.appendChild(root);
  root.getBoundingClientRect = () => box(0, 600);
  Object.defineProperties(root, {
    scrollHeight: { value: 2_000 },
    clientHeight: { value: 600 },
    scrollTop: { value: scrollTop },
  });
  slot.getBoundingClientRect = () => box(top, height);
  return { root, slot };
}

class FakeObserver {
  static observed: Element[] = [];
  observe(element: Element): void {
    FakeObserver.observed.push(element);
  }
  unobserve(): void {}
  disconnect(): void {}
}

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  FakeObserver.observed = [];
});

describe("shownAtListEnd", () => {
  it("counts a slot in the visible part of a list at its end", () => {
    for (const [top, shown] of [
      [0, true],
      [399, true],
      [599, true],
      [600, false],
      [-199, true],
      [-200, false],
    ] as const) {
      const { root, slot } = listWithSlot(top);
      expect(shownAtListEnd(slot, root), `top ${top}`).toBe(shown);
    }
  });

  it("leaves a list scrolled elsewhere, the window, and a slot with no size to the observer", () => {
    const scrolledUp = listWithSlot(100, 800);
    expect(shownAtListEnd(scrolledUp.slot, scrolledUp.root)).toBe(false);
    const inWindow = listWithSlot(100);
    expect(shownAtListEnd(inWindow.slot, null)).toBe(false);
    const empty = listWithSlot(100);
    empty.slot.getBoundingClientRect = () => ({ ...box(100, 0), width: 0 });
    expect(shownAtListEnd(empty.slot, empty.root)).toBe(false);
    expect(shownAtListEnd(document.createElement("div"), empty.root)).toBe(false);
  });
});

describe("watchNearness", () => {
  it("reports a slot shown at the list's end at once, and any other only through the observer", () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const shown = listWithSlot(100).slot;
    const above = listWithSlot(100, 800).slot;
    const reports: Array<[string, boolean]> = [];
    const stopShown = watchNearness(shown, (value) => reports.push(["shown", value]));
    const stopAbove = watchNearness(above, (value) => reports.push(["above", value]));
    expect(reports).toEqual([["shown", true]]);
    expect(FakeObserver.observed).toEqual([shown, above]);
    stopShown();
    stopAbove();
  });
});
