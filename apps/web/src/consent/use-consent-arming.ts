import { type RefObject, useEffect, useRef, useState } from "react";
import { ConsentArming, type ConsentArmingOptions } from "./consent-arming";

/** What {@link useConsentArming} gives a consent dialog. */
export interface ConsentButtons {
  /** Whether the buttons are armed (for their look and `aria-disabled`). */
  armed: boolean;
  /**
   * Asks whether a button's click may act now; a click that may not is ignored, and
   * `refusedPress` becomes true so the dialog can say why nothing happened.
   */
  activate: () => boolean;
  /** The last click was ignored because its press began too early. */
  refusedPress: boolean;
}

/**
 * Arms a consent dialog's buttons (see `ConsentArming`): from the moment the dialog is visible
 * (the page is in the foreground) plus the delay, and only for presses that began inside the
 * dialog after that. Enter, Space and pointer presses inside the dialog are watched in the
 * capture phase, before any button sees them.
 *
 * @param dialog - the dialog element.
 * @param options - the clock and delay (tests).
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
  const [refusedPress, setRefusedPress] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    const state = arming.current;
    if (element === null || state === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The timer only updates the buttons' look; `activate` reads the clock itself.
    const follow = () => {
      clearTimeout(timer);
      const armsAt = state.armsAt;
      if (armsAt === null) {
        setArmed(false);
        return;
      }
      const wait = armsAt - now.current();
      if (wait <= 0) {
        setArmed(true);
        return;
      }
      setArmed(false);
      timer = setTimeout(follow, wait);
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") state.hidden();
      else state.shown();
      follow();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Enter" || event.key === " ") state.inputStarted(event.repeat);
    };
    const onPointerDown = () => state.inputStarted(false);
    onVisibility();
    document.addEventListener("visibilitychange", onVisibility);
    element.addEventListener("keydown", onKeyDown, true);
    element.addEventListener("pointerdown", onPointerDown, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      element.removeEventListener("keydown", onKeyDown, true);
      element.removeEventListener("pointerdown", onPointerDown, true);
    };
  }, [dialog]);

  return {
    armed,
    refusedPress,
    activate: () => {
      const allowed = arming.current?.activate() === true;
      setRefusedPress(!allowed);
      return allowed;
    },
  };
}
