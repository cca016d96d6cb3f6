import { describe, expect, it } from "vitest";
import { type OrderItem, stableLayout } from "./stable-order";

const text = (key: string): OrderItem => ({ key, pinned: false });
const card = (key: string): OrderItem => ({ key, pinned: true });

/**
 * The keys React's reconciler moves (rather than keeps or inserts) when a keyed list goes from
 * `before` to `after`, as `reconcileChildrenArray` decides it: a kept child is moved when its old
 * index is below the highest old index of the kept children placed before it.
 */
function movedByReact(before: readonly string[], after: readonly string[]): string[] {
  const oldIndex = new Map(before.map((key, index) => [key, index]));
  let lastPlaced = 0;
  const moved: string[] = [];
  for (const key of after) {
    const index = oldIndex.get(key);
    if (index === undefined) continue;
    if (index < lastPlaced) moved.push(key);
    else lastPlaced = index;
  }
  return moved;
}

/** A small deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe("stableLayout", () => {
  it("keeps the wanted order when cards keep theirs", () => {
    const layout = stableLayout([], [text("a"), card("c1"), text("b"), card("c2")]);
    expect(layout.placed.map((entry) => entry.item.key)).toEqual(["a", "c1", "b", "c2"]);
    expect(layout.reordered).toBe(false);
    expect(layout.pinnedOrder).toEqual(["c1", "c2"]);
    expect(layout.placed.map((entry) => entry.domKey)).toEqual([
      "start:a",
      "pinned:c1",
      "after:c1:b",
      "pinned:c2",
    ]);
  });

  it("gives an item that changes sides of a card a new key instead of moving the card", () => {
    const first = stableLayout([], [text("text-0"), card("c1"), text("tool-t1")]);
    const second = stableLayout(first.pinnedOrder, [
      text("text-0"),
      text("tool-t1"),
      card("c1"),
      text("text-1"),
    ]);
    expect(second.reordered).toBe(false);
    const before = first.placed.map((entry) => entry.domKey);
    const after = second.placed.map((entry) => entry.domKey);
    expect(after).toEqual(["start:text-0", "start:tool-t1", "pinned:c1", "after:c1:text-1"]);
    expect(movedByReact(before, after)).toEqual([]);
  });

  it("keeps two swapped cards where they are and asks CSS to show the wanted order", () => {
    const first = stableLayout([], [card("c1"), card("c2")]);
    const second = stableLayout(first.pinnedOrder, [card("c2"), text("t"), card("c1")]);
    expect(second.pinnedOrder).toEqual(["c1", "c2"]);
    expect(second.reordered).toBe(true);
    expect(second.placed.map((entry) => [entry.item.key, entry.position])).toEqual([
      ["c1", 2],
      ["c2", 0],
      ["t", 1],
    ]);
  });

  it("puts a new card after the card it follows in the wanted order", () => {
    const first = stableLayout([], [card("c1"), card("c3")]);
    const second = stableLayout(first.pinnedOrder, [
      card("c0"),
      card("c1"),
      card("c2"),
      card("c3"),
    ]);
    expect(second.pinnedOrder).toEqual(["c0", "c1", "c2", "c3"]);
    expect(second.reordered).toBe(false);
  });

  it("never makes React move a card, over many random sequences of updates", () => {
    const next = random(8);
    for (let run = 0; run < 200; run++) {
      let pinned: string[] = [];
      let dom: string[] = [];
      const cards = new Set<string>();
      for (let step = 0; step < 12; step++) {
        // A random wanted order: the cards seen so far plus maybe a new one, and some texts.
        if (next() < 0.4) cards.add(`c${cards.size}`);
        const items: OrderItem[] = [
          ...[...cards].map(card),
          ...Array.from({ length: Math.floor(next() * 5) }, (_, index) => text(`t${index}`)),
        ];
        for (let index = items.length - 1; index > 0; index--) {
          const other = Math.floor(next() * (index + 1));
          [items[index], items[other]] = [items[other] as OrderItem, items[index] as OrderItem];
        }
        const layout = stableLayout(pinned, items);
        const keys = layout.placed.map((entry) => entry.domKey);
        const cardMoves = movedByReact(dom, keys).filter((key) => key.startsWith("pinned:"));
        expect(cardMoves, `run ${run}, step ${step}`).toEqual([]);
        expect(new Set(keys).size).toBe(keys.length);
        // What shows (DOM order, then CSS order) is the wanted order.
        const shown = [...layout.placed].sort((left, right) => left.position - right.position);
        expect(shown.map((entry) => entry.item.key)).toEqual(items.map((item) => item.key));
        pinned = layout.pinnedOrder;
        dom = keys;
      }
    }
  });
});
