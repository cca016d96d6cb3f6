/// <reference lib="dom" />
// Finds a view's elements by their `data-testid`, the same names the end-to-end tests use, so the
// page and its tests cannot drift apart without the page failing at once.

/**
 * The element with `data-testid="<testId>"`, checked to be of the expected class.
 *
 * @param testId - the `data-testid` value.
 * @param type - the element class, such as `HTMLButtonElement` or `SVGSVGElement`.
 * @returns the element.
 * @throws {Error} when no such element exists or it is of another class (a bug in the page).
 */
export function byTestId<Found extends Element>(
  testId: string,
  type: abstract new () => Found,
): Found {
  const element = document.querySelector(`[data-testid="${testId}"]`);
  if (!(element instanceof type)) {
    throw new Error(`The page has no ${type.name} with data-testid="${testId}".`);
  }
  return element;
}
