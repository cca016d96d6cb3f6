import { useEffect, useLayoutEffect, useRef, type RefObject, type UIEvent } from "react";

/** How close to the bottom (px) counts as "reading the latest": new content then scrolls into view. */
const followBottomPixels = 80;

/** What a person does in a list that ends its opening (scrolling by hand, touching, keys). */
const personEvents = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/**
 * Keeps a scrolling list at its end while the person reads the latest, and never otherwise.
 * - Opening a list (or another chat or conversation: `openKey`) starts at its end, and keeps
 *   it there while what was opened settles: the cards near the end become live and grow to
 *   their views' height after the first scroll to the end, which would otherwise leave the
 *   person above the end of a saved conversation. The opening ends with the first new content,
 *   the person's first scroll up, or anything they do in the list.
 * - New content at the end (`tail` changed: a message added, the last one grew) scrolls to the
 *   end only when the person was at the end.
 * - The last item growing (the list's last message or card: a card in it whose view reports a
 *   new height, its frame growing to it) scrolls to the end, as a streaming reply does, only
 *   when the person was at the end: a new card that opens below the fold comes into view.
 * - Scrolling up stops following; scrolling back to the end follows again. Only a move up stops
 *   it: a card in view growing moves nothing, and one above growing moves the list down (the
 *   browser's scroll anchoring), neither of which is the person leaving the end.
 * - Anything else after the opening scrolls nothing: a card above the last item growing is left
 *   to the browser's scroll anchoring, which keeps what the person looks at in place, and a person
 *   who scrolled up is never moved. A click aimed at a card in view lands where it was aimed
 *   once no frame grows; while the last item grows at the end, what is above it moves up with
 *   the end, as it does under a streaming reply.
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
  /** Opened and nothing new since, nor anything the person did: growth keeps the end. */
  const opening = useRef(false);

  useLayoutEffect(() => {
    const element = container.current;
    // jsdom has no layout: nothing to scroll there.
    if (element === null || typeof element.scrollTo !== "function") return;
    if (openedKey.current !== openKey) {
      openedKey.current = openKey;
      following.current = true;
      opening.current = true;
    } else {
      opening.current = false;
    }
    if (following.current) element.scrollTo({ top: element.scrollHeight });
  }, [container, openKey, tail]);

  useEffect(() => {
    const element = container.current;
    const content = element?.firstElementChild;
    if (element == null || content == null || typeof ResizeObserver === "undefined") return;
    /** The list's last item (message or card), watched for growth at the end. */
    let last: Element | null = null;
    const observer = new ResizeObserver((entries) => {
      // A scroll up whose event has not come yet is the person (or a click's scroll into view).
      if (!following.current || element.scrollTop < lastTop.current) return;
      if (opening.current || entries.some((entry) => entry.target === last)) {
        element.scrollTo({ top: element.scrollHeight });
      }
    });
    observer.observe(content);
    const watchLast = () => {
      const next = content.lastElementChild;
      if (next === last) return;
      if (last !== null) observer.unobserve(last);
      last = next;
      if (last !== null) observer.observe(last);
    };
    watchLast();
    // Items are added and removed by React; the last one is whichever is last now.
    const items = new MutationObserver(watchLast);
    items.observe(content, { childList: true });
    const endOpening = () => {
      opening.current = false;
    };
    for (const type of personEvents) element.addEventListener(type, endOpening, { passive: true });
    return () => {
      observer.disconnect();
      items.disconnect();
      for (const type of personEvents) element.removeEventListener(type, endOpening);
    };
  }, [container]);

  return (event) => {
    const element = event.currentTarget;
    const atEnd =
      element.scrollHeight - element.scrollTop - element.clientHeight < followBottomPixels;
    if (atEnd) following.current = true;
    else if (element.scrollTop < lastTop.current) {
      following.current = false;
      opening.current = false;
    }
    lastTop.current = element.scrollTop;
  };
}

/** A summary of a list's last item that changes when the item is added or grows. */
export function tailOf(
  count: number,
  last:
    | { id: string; status: string; parts: readonly { type: string; text?: string | undefined }[] }
    | undefined,
  extra: number,
): string {
  if (last === undefined) return `${count}:${extra}`;
  let length = 0;
  for (const part of last.parts) length += part.type === "text" ? (part.text?.length ?? 0) : 1;
  return `${count}:${last.id}:${last.status}:${length}:${extra}`;
}
