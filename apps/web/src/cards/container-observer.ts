/** A box's size in CSS pixels. */
export interface BoxSize {
  width: number;
  height: number;
}

/**
 * Measures an element's border box now.
 *
 * @returns its width and height.
 */
export function measureElement(element: Element): BoxSize {
  const box = element.getBoundingClientRect();
  return { width: box.width, height: box.height };
}

/**
 * Calls `onResize` with the element's content box whenever it changes size (a `ResizeObserver`).
 * Where the browser has no ResizeObserver, nothing is observed.
 *
 * @returns a function that stops observing.
 */
export function observeContainer(element: Element, onResize: (size: BoxSize) => void): () => void {
  if (typeof ResizeObserver === "undefined") return () => undefined;
  const observer = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1]?.contentRect;
    if (box !== undefined) onResize({ width: box.width, height: box.height });
  });
  observer.observe(element);
  return () => observer.disconnect();
}
