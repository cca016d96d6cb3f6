// Whether a card's slot is near the visible part of the list that scrolls it, for the live view
// budget. One IntersectionObserver per scrolling list serves every card in it: observed against
// the list itself, the margin reaches past the list's edges (an observer against the window
// would see only what the list does not clip).

/** How far outside the visible part of the list a card still counts as near: half its height. */
const nearMargin = "50% 0px 50% 0px";

/** The attribute that marks the element scrolling the cards (the message list). */
const scrollRootAttribute = "data-scroll-root";

type NearCallback = (near: boolean) => void;

const observers = new Map<Element | null, IntersectionObserver>();
const callbacks = new Map<Element, NearCallback>();

function observerFor(root: Element | null): IntersectionObserver | null {
  const known = observers.get(root);
  if (known !== undefined) return known;
  if (typeof IntersectionObserver === "undefined") return null;
  const created = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) callbacks.get(entry.target)?.(entry.isIntersecting);
    },
    { root, rootMargin: nearMargin },
  );
  observers.set(root, created);
  return created;
}

/** How close to its end (px) a list counts as showing its end. */
const atEndPixels = 2;

/**
 * Measures once whether an element is shown now in a list that shows its end: the newest card of
 * a conversation the person reads at its end. An observer's first report comes only after the
 * next rendering frame; such a card need not wait for it. Anything else (a list scrolled
 * elsewhere, one whose cards are still settling into place, the window) is left to the observer.
 *
 * @param root - the scrolling list, or null for the window (never measured).
 * @returns true when the list is at its end and the element is in its visible part; false when
 *   not, or when the element is not in the page or has no size.
 */
export function shownAtListEnd(element: Element, root: Element | null): boolean {
  if (root === null || !element.isConnected || typeof window === "undefined") return false;
  if (root.scrollHeight - root.scrollTop - root.clientHeight > atEndPixels) return false;
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  const area = root.getBoundingClientRect();
  return box.bottom > area.top && box.top < area.bottom;
}

/**
 * Follows whether an element is near the visible part of its scrolling list (the closest
 * ancestor with {@link scrollRootAttribute}, else the window). Where the browser has no
 * IntersectionObserver, the element counts as near at once. An element already shown at the
 * end of its list when watching starts ({@link shownAtListEnd}) is reported near at once,
 * without waiting a frame for the observer.
 *
 * @param onChange - called with the element's nearness when it changes (and first soon after).
 * @returns a function that stops following it.
 */
export function watchNearness(element: Element, onChange: NearCallback): () => void {
  const root = element.parentElement?.closest(`[${scrollRootAttribute}]`) ?? null;
  const observer = observerFor(root);
  if (observer === null) {
    onChange(true);
    return () => undefined;
  }
  callbacks.set(element, onChange);
  observer.observe(element);
  if (shownAtListEnd(element, root)) onChange(true);
  return () => {
    if (callbacks.get(element) !== onChange) return;
    callbacks.delete(element);
    observer.unobserve(element);
    if (root !== null && !root.isConnected) {
      observer.disconnect();
      observers.delete(root);
    }
  };
}
