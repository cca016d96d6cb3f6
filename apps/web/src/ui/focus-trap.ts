const focusableSelector = [
  "a[href]",
  "button:not([disabled])",
  "textarea:not([disabled])",
  "input:not([disabled])",
  "select:not([disabled])",
  '[tabindex]:not([tabindex="-1"])',
].join(",");

/** The elements inside `container` that Tab can reach, in order. */
function focusableElements(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusableSelector)];
}

/**
 * Handles one key press inside a dialog: Escape calls `onEscape`; Tab and Shift+Tab wrap at the
 * dialog's ends, and from the dialog box itself both go to its first control. Other keys are
 * left alone.
 *
 * @param container - the dialog element.
 * @param event - the key press.
 * @param onEscape - what Escape does (close, refuse).
 */
export function trapKey(container: HTMLElement, event: KeyboardEvent, onEscape: () => void): void {
  if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    onEscape();
    return;
  }
  if (event.key !== "Tab") return;
  const focusable = focusableElements(container);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (first === undefined || last === undefined) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  // From the dialog box itself (its first focus) both Tab and Shift+Tab go to the first control:
  // a question puts its refusing control first, so no key sequence starts on a yes.
  if (active === container) {
    event.preventDefault();
    first.focus();
  } else if (event.shiftKey && active === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
