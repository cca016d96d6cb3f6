import { type RefObject, useEffect, useRef, useState } from "react";
import { ConsentArming, type ConsentArmingOptions, type ConsentRefusal } from "./consent-arming";
import { hostQuestionShown } from "./host-question";

/** What {@link useConsentArming} gives a consent dialog. */
export interface ConsentButtons {
  /** Whether the buttons are armed (for their look and `aria-disabled`). */
  armed: boolean;
  /**
   * Whether a key press on the focused control counts now: the person moved the focus there
   * themselves after the dialog armed, a moment ago (for the dialog's `data-key-armed`).
   */
  keyArmed: boolean;
  /**
   * Asks whether `button`'s click may act now; a click that may not is ignored, and `refusal`
   * says why so the dialog can tell the person.
   */
  activate: (button: HTMLElement) => boolean;
  /** Why the last click was ignored, or null. */
  refusal: ConsentRefusal | null;
}

/** The button a press went down on, or null (text, the dialog box, a field). */
function buttonOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>("button") : null;
}

/**
 * Arms a consent dialog's buttons (see `ConsentArming`): from the moment the dialog is visible
 * (the page is in the foreground) plus the delay, and only for presses that began inside the
 * dialog after that, on the button itself; a key press only on a button the person moved to
 * themselves. Tab, Enter, Space, pointer presses and focus moves inside the dialog are watched
 * in the capture phase, before any button sees them. When the dialog appears it tells
 * `host-question.ts`, so a card in full screen makes way.
 *
 * @param dialog - the dialog element.
 * @param options - the clock and delays (tests).
 * @returns the buttons' state and their check.
 */
export function useConsentArming(
  dialog: RefObject<HTMLElement | null>,
  options: ConsentArmingOptions = {},
): ConsentButtons {
  const arming = useRef<ConsentArming | null>(null);
  arming.current ??= new ConsentArming(options);
  const now = useRef(options.now ?? Date.now);
  const [armed, setArmed] = useState(false);
  const [keyArmed, setKeyArmed] = useState(false);
  const [refusal, setRefusal] = useState<ConsentRefusal | null>(null);

  useEffect(() => {
    const element = dialog.current;
    const state = arming.current;
    if (element === null || state === null) return;
    hostQuestionShown();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // What moves the focus next: the person's Tab or pointer press (true), a held Tab (false).
    // Set in the capture phase of the press, read by the focus move it causes.
    let nextFocusByPerson: boolean | null = null;
    // The timer only updates the buttons' look; `activate` reads the clock itself.
    const follow = () => {
      clearTimeout(timer);
      const armsAt = state.armsAt;
      const keyArmsAt = state.keyArmsAt(buttonOf(document.activeElement));
      const current = now.current();
      setArmed(armsAt !== null && current >= armsAt);
      setKeyArmed(keyArmsAt !== null && current >= keyArmsAt);
      const later = [armsAt, keyArmsAt].filter(
        (time): time is number => time !== null && time > current,
      );
      if (later.length > 0) timer = setTimeout(follow, Math.min(...later) - current);
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") state.hidden();
      else state.shown();
      follow();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Tab") nextFocusByPerson = !event.repeat;
      if (event.key === "Enter" || event.key === " ") {
        state.inputStarted({ kind: "key", target: buttonOf(event.target), repeat: event.repeat });
      }
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === "Tab") nextFocusByPerson = null;
    };
    const onPointerDown = (event: PointerEvent) => {
      nextFocusByPerson = true;
      state.inputStarted({ kind: "pointer", target: buttonOf(event.target) });
    };
    const onFocusIn = (event: FocusEvent) => {
      state.focusMoved(buttonOf(event.target), nextFocusByPerson === true);
      nextFocusByPerson = null;
      follow();
    };
    const onFocusOut = (event: FocusEvent) => {
      if (!(event.relatedTarget instanceof Node && element.contains(event.relatedTarget))) {
        state.focusMoved(null, false);
        follow();
      }
    };
    onVisibility();
    document.addEventListener("visibilitychange", onVisibility);
    element.addEventListener("keydown", onKeyDown, true);
    element.addEventListener("keyup", onKeyUp, true);
    element.addEventListener("pointerdown", onPointerDown, true);
    element.addEventListener("focusin", onFocusIn, true);
    element.addEventListener("focusout", onFocusOut, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      element.removeEventListener("keydown", onKeyDown, true);
      element.removeEventListener("keyup", onKeyUp, true);
      element.removeEventListener("pointerdown", onPointerDown, true);
      element.removeEventListener("focusin", onFocusIn, true);
      element.removeEventListener("focusout", onFocusOut, true);
    };
  }, [dialog]);

  return {
    armed,
    keyArmed,
    refusal,
    activate: (button) => {
      const verdict = arming.current?.activate(button) ?? "early";
      setRefusal(verdict === "act" ? null : verdict);
      return verdict === "act";
    },
  };
}
