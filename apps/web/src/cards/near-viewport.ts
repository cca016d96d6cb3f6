// Whether a card is on screen or close to it, for the order of the attach queue: the cards the
// person sees open first. One IntersectionObserver serves every card of the page.

/** How far outside the viewport a card still counts as near: one viewport height each way. */
const nearMargin = "100% 0px 100% 0px";

type NearCallback = (near: boolean) => void;

let sharedObserver: IntersectionObserver | null = null;
const callbacks = new Map<Element, NearCallback>();

function observer(): IntersectionObserver | null {
  if (sharedObserver !== null) return sharedObserver;
  if (typeof IntersectionObserver === "undefined") return null;
  sharedObserver = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) callbacks.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: nearMargin },
  );
  return sharedObserver;
}

/**
 * Measures once whether an element is within one viewport height of the viewport (used before
 * the observer's first report, which comes a frame later).
 *
 * @returns true when near; false when the element is not in the page or has no size.
 */
export function isNearViewport(element: Element): boolean {
  if (!element.isConnected || typeof window === "undefined") return false;
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  const height = window.innerHeight;
  return box.bottom >= -height && box.top <= 2 * height;
}

/**
 * Follows whether an element is near the viewport. Does nothing where the browser has no
 * IntersectionObserver.
 *
 * @param element - the card's element; one callback per element.
 * @param onChange - called with the element's nearness when it changes (and first soon after).
 * @returns a function that stops following it.
 */
export function watchNearViewport(element: Element, onChange: NearCallback): () => void {
  const shared = observer();
  if (shared === null) return () => undefined;
  callbacks.set(element, onChange);
  shared.observe(element);
  return () => {
    if (callbacks.get(element) !== onChange) return;
    callbacks.delete(element);
    shared.unobserve(element);
  };
}
