/// <reference lib="dom" />
// The small status line every example view shows under its content: what just happened, or what
// went wrong. One element, its text and a tone the stylesheet colours.

/** How a status reads: a plain note, a success, or a problem. */
export type StatusTone = "info" | "success" | "error";

/** Shows one status at a time in an element (`role="status"`, so screen readers announce it). */
export class StatusLine {
  readonly #element: HTMLElement;

  /** @param element - the element to write into; gets `role="status"` and `aria-live="polite"`. */
  constructor(element: HTMLElement) {
    this.#element = element;
    element.setAttribute("role", "status");
    element.setAttribute("aria-live", "polite");
  }

  /**
   * Replaces the status.
   *
   * @param text - the sentence to show.
   * @param tone - how it reads; sets `data-tone` for the stylesheet. Default `info`.
   */
  show(text: string, tone: StatusTone = "info"): void {
    this.#element.textContent = text;
    this.#element.dataset["tone"] = tone;
  }
}
