import { type ReactNode, useLayoutEffect, useRef } from "react";
import { type OrderItem, stableLayout } from "./stable-order";

/** One part of a message to show. */
export interface StablePart extends OrderItem {
  node: ReactNode;
}

/**
 * A message's parts in their order, each in its own wrapper, placed by `stableLayout` so that a
 * pinned part (a card, whose iframe reloads when moved) keeps its element and its place in the
 * DOM for its whole life: a part reorder (a saved reply in another order) or a re-render never
 * moves it. When the DOM order cannot be the wanted one without moving a card, CSS `order`
 * shows the wanted order.
 *
 * @returns the `<div class="message-parts">`.
 */
export function StablePartList(props: { parts: readonly StablePart[] }) {
  const pinnedOrder = useRef<string[]>([]);
  // The last committed order is read while rendering on purpose: a render React throws away must
  // not change it, and keeping it in state would render every update twice.
  // eslint-disable-next-line react-hooks/refs -- see the line above
  const layout = stableLayout(pinnedOrder.current, props.parts);
  // Remember the committed order only: a render React throws away must not change the next one.
  useLayoutEffect(() => {
    pinnedOrder.current = layout.pinnedOrder;
  });
  return (
    <div
      className={layout.reordered ? "message-parts message-parts-reordered" : "message-parts"}
      data-testid="message-parts"
    >
      {layout.placed.map(({ item, domKey, position }) => (
        <div
          key={domKey}
          className="message-part"
          data-part-key={item.key}
          style={layout.reordered ? { order: position } : undefined}
        >
          {item.node}
        </div>
      ))}
    </div>
  );
}
