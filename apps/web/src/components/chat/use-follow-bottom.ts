import { useLayoutEffect, useRef, type RefObject, type UIEvent } from "react";

/** How close to the bottom (px) counts as "reading the latest": new content then scrolls into view. */
const followBottomPixels = 80;

/**
 * Keeps a scrolling list at its end while the person reads the latest, and never otherwise.
 * - Opening a list (or another chat or conversation: `openKey`) starts at its end.
 * - New content at the end (`tail` changed: a message added, the last one grew) scrolls to the
 *   end only when the person was at the end.
 * - Scrolling up stops following; scrolling back to the end follows again. Only a move up stops
 *   it: a card in view growing moves nothing, and one above growing moves the list down (the
 *   browser's scroll anchoring), neither of which is the person leaving the end.
 * - Anything else (a card above growing, a card's view resizing) scrolls nothing: the browser's
 *   scroll anchoring keeps what the person looks at in place, and a click aimed at a card's frame
 *   lands where it was aimed.
 *
 * @param tail - a value that changes when content is added at the end, and only then.
 * @returns the list's scroll handler.
 */
export function useFollowBottom(
  container: RefObject<HTMLElement | null>,
  openKey: string,
  tail: string,
): (event: UIEvent<HTMLElement>) => void {
  const following = useRef(true);
  const lastTop = useRef(0);
  const openedKey = useRef<string | null>(null);

  useLayoutEffect(() => {
    const element = container.current;
    // jsdom has no layout: nothing to scroll there.
    if (element === null || typeof element.scrollTo !== "function") return;
    if (openedKey.current !== openKey) {
      openedKey.current = openKey;
      following.current = true;
    }
    if (following.current) element.scrollTo({ top: element.scrollHeight });
  }, [container, openKey, tail]);

  return (event) => {
    const element = event.currentTarget;
    const atEnd =
      element.scrollHeight - element.scrollTop - element.clientHeight < followBottomPixels;
    if (atEnd) following.current = true;
    else if (element.scrollTop < lastTop.current) following.current = false;
    lastTop.current = element.scrollTop;
  };
}

/** A summary of a list's last item that changes when the item is added or grows. */
export function tailOf(
  count: number,
  last:
    { id: string; status: string; parts: readonly { type: string; text?: string }[] } | undefined,
  extra: number,
): string {
  if (last === undefined) return `${count}:${extra}`;
  let length = 0;
  for (const part of last.parts) length += part.type === "text" ? (part.text?.length ?? 0) : 1;
  return `${count}:${last.id}:${last.status}:${length}:${extra}`;
}
