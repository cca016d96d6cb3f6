import { type RefObject, useLayoutEffect, useRef } from "react";

/** Where a message's top is, from the top of the list's visible area (px); null when not shown. */
function topOf(list: HTMLElement, messageId: string): number | null {
  const selector = `[data-message-id="${messageId.replace(/["\\]/g, "\\$&")}"]`;
  const message = list.querySelector(selector);
  return message === null
    ? null
    : message.getBoundingClientRect().top - list.getBoundingClientRect().top;
}

/**
 * Keeps what the person looks at in place when earlier messages are put before the first one:
 * the message that was first stays where it was on screen (the list scrolls down by what was
 * added above it). It measures after each new first message and on each scroll; a first message
 * that is gone (another conversation, a fresh snapshot) moves nothing. Chromium's own scroll
 * anchoring may already have kept it in place; the correction is then zero.
 *
 * @param firstId - the id of the list's first message.
 * @returns a function the list's scroll handler calls, to measure again.
 */
export function useKeepPlace(
  container: RefObject<HTMLElement | null>,
  firstId: string | undefined,
): () => void {
  const place = useRef<{ id: string; top: number } | null>(null);

  useLayoutEffect(() => {
    const list = container.current;
    const before = place.current;
    if (list !== null && before !== null && before.id !== firstId) {
      const top = topOf(list, before.id);
      // jsdom has no layout: nothing to scroll there.
      if (top !== null && top !== before.top && typeof list.scrollBy === "function") {
        list.scrollBy({ top: top - before.top });
      }
    }
    place.current = placeOf(container.current, firstId);
  }, [container, firstId]);

  return () => {
    place.current = placeOf(container.current, firstId);
  };
}

/** Where the list's first message is now, or null. */
function placeOf(
  list: HTMLElement | null,
  firstId: string | undefined,
): { id: string; top: number } | null {
  const top = list === null || firstId === undefined ? null : topOf(list, firstId);
  return top === null || firstId === undefined ? null : { id: firstId, top };
}
