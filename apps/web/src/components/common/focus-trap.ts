import { type RefObject, useEffect } from "react";

const focusableSelector = [
  "a[href]",
  "button:not([disabled])",
  "textarea:not([disabled])",
  "input:not([disabled])",
  "select:not([disabled])",
  '[tabindex]:not([tabindex="-1"])',
].join(",");

/** The elements inside `container` that Tab can reach, in order. */
export function focusableElements(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusableSelector)];
}

/**
 * Handles one key press inside a dialog: Escape calls `onEscape`; Tab and Shift+Tab wrap at the
 * dialog's ends. Other keys are left alone.
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
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Keeps the keyboard focus inside a dialog while it is open: focuses the dialog when it opens,
 * wraps Tab and Shift+Tab at its ends, calls `onEscape` on Escape, and gives the focus back to
 * where it was when the dialog closes.
 *
 * @param container - the dialog element.
 * @param onEscape - what Escape does (close, refuse).
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, onEscape: () => void): void {
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.focus();
    return () => {
      if (previous?.isConnected === true) previous.focus();
    };
  }, [container]);

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const onKeyDown = (event: KeyboardEvent) => trapKey(element, event, onEscape);
    element.addEventListener("keydown", onKeyDown);
    return () => element.removeEventListener("keydown", onKeyDown);
  }, [container, onEscape]);
}
