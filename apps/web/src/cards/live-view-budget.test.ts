// @vitest-environment jsdom
// The live view budget on its own: cards near the view go live nearest first, never more than the
// cap; beyond it the live card farthest from view and not in use is paused for the nearer one; a
// card in use or holding the focus is never paused; a paused card comes back paused, with what
// the page remembers of it; a smaller cap pauses idle cards.
import { afterEach, describe, expect, it } from "vitest";
import { LiveViewBudget, type LiveViewControl } from "./live-view-budget";

/** Lets the budget's scheduled steps and the pauses' promises run. */
async function settle(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}

interface Harness {
  budget: LiveViewBudget;
  distances: Map<string, number>;
  focused: Set<string>;
  paused: string[];
  busy: Set<string>;
  add(id: string, distance: number): () => void;
  makeLive(id: string): void;
  /** Runs the looks again the budget asked for. */
  recheck(): void;
}

function harness(cap: number): Harness {
  const distances = new Map<string, number>();
  const focused = new Set<string>();
  const busy = new Set<string>();
  const paused: string[] = [];
  const elements = new Map<Element, string>();
  let rechecks: Array<() => void> = [];
  const budget = new LiveViewBudget({
    later: (step) => {
      rechecks.push(step);
      return () => {
        rechecks = rechecks.filter((queued) => queued !== step);
      };
    },
    cap,
    distanceOf: (element) => distances.get(elements.get(element) ?? "") ?? Infinity,
    holdsFocus: (element) => focused.has(elements.get(element) ?? ""),
    now: () => 1_000,
  });
  const controls = new Map<string, LiveViewControl>();
  const result: Harness = {
    budget,
    distances,
    focused,
    paused,
    busy,
    recheck() {
      const due = rechecks;
      rechecks = [];
      for (const step of due) step();
    },
    add(id, distance) {
      const element = document.createElement("div");
      element.style.height = "300px";
      document.body.appendChild(element);
      elements.set(element, id);
      distances.set(id, distance);
      const leave = budget.join(id, element);
      budget.setNear(id, true);
      return leave;
    },
    makeLive(id) {
      // What the card's view does once it mounts: hand over its controls.
      const control: LiveViewControl = {
        inUse: () => busy.has(id),
        pause: async () => {
          paused.push(id);
        },
      };
      controls.set(id, control);
      budget.bindView(id, control);
    },
  };
  // Every card that goes live mounts its view at once, as the page's slot does.
  const states = new Map<string, string>();
  const original = budget.setNear.bind(budget);
  budget.setNear = (id, near) => {
    if (!states.has(id)) {
      states.set(id, "");
      budget.subscribe(id, () => {
        if (budget.stateOf(id) === "live" && !controls.has(id)) result.makeLive(id);
        if (budget.stateOf(id) === "paused") controls.delete(id);
      });
    }
    original(id, near);
  };
  return result;
}

function liveIds(budget: LiveViewBudget, ids: string[]): string[] {
  return ids.filter((id) => {
    const state = budget.stateOf(id);
    return state === "live" || state === "pausing";
  });
}

afterEach(() => {
  document.body.replaceChildren();
});

describe("LiveViewBudget", () => {
  it("makes the nearest cards live first and never more than the cap", async () => {
    const { budget, add } = harness(2);
    add("far", 500);
    add("visible", 0);
    add("close", 100);
    await settle();
    expect(liveIds(budget, ["far", "visible", "close"])).toEqual(["visible", "close"]);
    expect(budget.stateOf("far")).toBe("waiting");
    expect(budget.liveCount).toBe(2);
  });

  it("pauses the live card farthest from view for a card coming into view", async () => {
    const { budget, add, distances, paused } = harness(2);
    add("a", 0);
    add("b", 50);
    await settle();
    // The person scrolls: a and b move away, c comes into view.
    distances.set("a", 900);
    distances.set("b", 400);
    add("c", 0);
    await settle();
    expect(paused).toEqual(["a"]);
    expect(budget.stateOf("a")).toBe("paused");
    expect(liveIds(budget, ["a", "b", "c"])).toEqual(["b", "c"]);
    expect(budget.liveCount).toBeLessThanOrEqual(2);
    const memory = budget.memoryOf("a");
    expect(memory?.pausedAt).toBe(1_000);
  });

  it("never pauses a card in use or holding the focus; the new card waits instead", async () => {
    const { budget, add, distances, paused, busy, focused, recheck } = harness(2);
    add("calling", 0);
    add("focused", 10);
    await settle();
    busy.add("calling");
    focused.add("focused");
    distances.set("calling", 2_000);
    distances.set("focused", 1_000);
    add("new", 0);
    await settle();
    expect(paused).toEqual([]);
    expect(budget.stateOf("new")).toBe("waiting");
    // The call is answered: when the budget looks again, the idle card farthest away makes room.
    busy.delete("calling");
    recheck();
    await settle();
    expect(paused).toEqual(["calling"]);
    expect(budget.stateOf("new")).toBe("live");
  });

  it("does not pause a live card that is nearer than the one waiting", async () => {
    const { budget, add, paused } = harness(1);
    add("visible", 0);
    await settle();
    add("below", 300);
    await settle();
    expect(paused).toEqual([]);
    expect(budget.stateOf("below")).toBe("waiting");
  });

  it("brings a paused card back paused, with its report, and live again when near", async () => {
    const { budget, add, distances } = harness(1);
    add("a", 0);
    await settle();
    budget.noteReport("a", "3 notes, 12 words.");
    distances.set("a", 800);
    add("b", 0);
    await settle();
    expect(budget.stateOf("a")).toBe("paused");
    expect(budget.memoryOf("a")?.reportText).toBe("3 notes, 12 words.");
    // Scrolling back: a is in view again and b far away.
    distances.set("a", 0);
    distances.set("b", 800);
    budget.setNear("a", false);
    budget.setNear("a", true);
    await settle();
    expect(budget.stateOf("a")).toBe("live");
    expect(budget.stateOf("b")).toBe("paused");
  });

  it("pauses idle cards when the cap becomes smaller", async () => {
    const { budget, add, paused } = harness(3);
    add("a", 0);
    add("b", 100);
    add("c", 200);
    await settle();
    budget.setCap(1);
    await settle();
    expect(paused.sort()).toEqual(["b", "c"]);
    expect(budget.liveCount).toBe(1);
    budget.setCap(0);
    expect(budget.cap).toBe(1);
  });

  it("keeps a card's state when its slot leaves and joins again in the same task", async () => {
    const { budget, add } = harness(1);
    const leaveFirst = add("a", 0);
    await settle();
    leaveFirst();
    const element = document.createElement("div");
    document.body.appendChild(element);
    const leave = budget.join("a", element);
    await settle();
    expect(budget.stateOf("a")).toBe("live");
    leave();
    await settle();
    expect(budget.stateOf("a")).toBe("standby");
  });
});
