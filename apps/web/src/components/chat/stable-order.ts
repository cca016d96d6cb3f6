// The order in which a message's parts are put in the DOM, so that React never moves a card.
// React reorders keyed children by moving DOM nodes, and moving an iframe reloads it (the view is
// then never delivered again). React moves a kept child only when a kept sibling that was after
// it now comes before it. So: cards ("pinned" items) keep their relative DOM order for their
// whole life, and every other item is keyed by the card it follows, so an item that changes
// sides of a card is a new element (cheap: text, a tool row) instead of a moved one. When the
// wanted order puts cards in another relative order, the DOM keeps the old one and CSS `order`
// shows the wanted one. See docs/decisions/2026-12-01-cards-never-move.md.

/** One item to show, in the wanted order. */
export interface OrderItem {
  /** Unique among the items. */
  key: string;
  /** True for an item whose element must never move (a card). */
  pinned: boolean;
}

/** One item as placed in the DOM. */
export interface PlacedItem<T extends OrderItem> {
  item: T;
  /** The React key: from the item's key, and for an unpinned item the pinned one it follows. */
  domKey: string;
  /** The item's place in the wanted order (for CSS `order`). */
  position: number;
}

/** Where each item goes in the DOM. */
export interface StableLayout<T extends OrderItem> {
  /** The items in DOM order. */
  placed: PlacedItem<T>[];
  /** The pinned keys in DOM order: pass it back as `previousPinned` next time. */
  pinnedOrder: string[];
  /** True when the DOM order differs from the wanted order (CSS `order` must show it). */
  reordered: boolean;
}

/** The pinned keys in DOM order: the kept ones as before, each new one after its wanted predecessor. */
function pinnedDomOrder(previousPinned: readonly string[], wantedPinned: readonly string[]) {
  const wanted = new Set(wantedPinned);
  const order = previousPinned.filter((key) => wanted.has(key));
  const placed = new Set(order);
  wantedPinned.forEach((key, index) => {
    if (placed.has(key)) return;
    let after = -1;
    for (let back = index - 1; back >= 0; back--) {
      const previous = wantedPinned[back];
      if (previous !== undefined && placed.has(previous)) {
        after = order.indexOf(previous);
        break;
      }
    }
    order.splice(after + 1, 0, key);
    placed.add(key);
  });
  return order;
}

/**
 * Places items in the DOM so that no pinned item ever moves (see the file's comment).
 *
 * @param previousPinned - the pinned keys in DOM order after the last render ([] at first).
 * @param wanted - the items in the order they should show.
 * @returns the DOM order, the pinned order to keep, and whether CSS must reorder.
 */
export function stableLayout<T extends OrderItem>(
  previousPinned: readonly string[],
  wanted: readonly T[],
): StableLayout<T> {
  const wantedPinned = wanted.filter((item) => item.pinned).map((item) => item.key);
  const pinnedOrder = pinnedDomOrder(previousPinned, wantedPinned);
  // Each unpinned item belongs to the segment after the pinned item it follows in the wanted order.
  const segments = new Map<string | null, PlacedItem<T>[]>();
  let anchor: string | null = null;
  wanted.forEach((item, position) => {
    if (item.pinned) {
      anchor = item.key;
      return;
    }
    const segment = segments.get(anchor) ?? [];
    const domKey = anchor === null ? `start:${item.key}` : `after:${anchor}:${item.key}`;
    segment.push({ item, domKey, position });
    segments.set(anchor, segment);
  });
  const pinnedByKey = new Map<string, PlacedItem<T>>();
  wanted.forEach((item, position) => {
    if (item.pinned) pinnedByKey.set(item.key, { item, domKey: `pinned:${item.key}`, position });
  });
  const placed: PlacedItem<T>[] = [...(segments.get(null) ?? [])];
  for (const key of pinnedOrder) {
    const pinned = pinnedByKey.get(key);
    if (pinned !== undefined) placed.push(pinned);
    placed.push(...(segments.get(key) ?? []));
  }
  return {
    placed,
    pinnedOrder,
    reordered: placed.some((entry, index) => entry.position !== index),
  };
}
