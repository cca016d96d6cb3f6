// When a consent button (allow a call, allow full screen, allow the camera) may act. A view can
// ask for consent at a moment of its choosing and tell the person to press keys just then
// ("Press Tab, then Enter", "Tab Tab Tab Enter"), ask for a double click where the button will
// appear, or rely on a key the person holds down: the press lands in the dialog that opened
// under it. So a consent button acts only:
//
// - when the dialog has been visible for a moment (the arming delay), and
// - for a press that began after that moment and was not an auto-repeat, and
// - for a pointer press, when it went down on that very button; for a key press (Enter, Space),
//   when it went down on that button, after the person moved the focus there themselves (their
//   own Tab or pointer press, after the dialog armed) and the button had held the focus for a
//   moment too: a key sequence typed in one go, as a view tells the person to, never gets there.
//
// The dialog's first focus is the dialog box itself and its first Tab stop a refusing control,
// so a short sequence lands on "no"; this class decides for the buttons that say yes.

/** How long, in milliseconds, a consent dialog stays unarmed after it became visible. */
export const consentArmDelayMs = 600;

/** What {@link ConsentArming} needs: a clock and the delays. All injectable for tests. */
export interface ConsentArmingOptions {
  /** The clock, in milliseconds; default `Date.now`. */
  now?: () => number;
  /** The delay after the dialog became visible; default {@link consentArmDelayMs}. */
  delayMs?: number;
  /**
   * How long a button must have held the focus before a key press on it counts; default the
   * same as `delayMs`.
   */
  focusDelayMs?: number;
}

/** Why a button's activation was ignored: too early, or not on a button the person chose. */
export type ConsentRefusal = "early" | "not-chosen";

/** What a button's activation may do: act, or be ignored for a reason. */
export type ConsentVerdict = "act" | ConsentRefusal;

/** A press that began inside the dialog. */
interface StartedInput {
  kind: "key" | "pointer";
  at: number;
  /** The button the press went down on (null when it was not on a button). */
  target: object | null;
  /** An auto-repeated key press (the key was already held down). */
  repeat: boolean;
}

/** Where the focus is in the dialog, since when, and whether the person put it there. */
interface FocusRecord {
  target: object;
  at: number;
  byPerson: boolean;
}

/**
 * The arming state of one consent dialog. The dialog says when it became visible
 * ({@link shown}) or hidden, where the focus moved ({@link focusMoved}), and reports every
 * Enter, Space or pointer press that begins inside it ({@link inputStarted}); a button asks
 * {@link activate} before it acts. Buttons are compared by identity (DOM elements in the app).
 */
export class ConsentArming {
  readonly #now: () => number;
  readonly #delayMs: number;
  readonly #focusDelayMs: number;
  #shownAt: number | null = null;
  #input: StartedInput | null = null;
  #focus: FocusRecord | null = null;

  constructor(options: ConsentArmingOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#delayMs = Math.max(0, options.delayMs ?? consentArmDelayMs);
    this.#focusDelayMs = Math.max(0, options.focusDelayMs ?? this.#delayMs);
  }

  /** The dialog is visible to the person from now on (a second call keeps the first time). */
  shown(): void {
    if (this.#shownAt === null) this.#shownAt = this.#now();
  }

  /**
   * The dialog is not visible any more (the tab went to the background): it arms again only a
   * moment after it is {@link shown} again, and presses and focus moves from before count for
   * nothing.
   */
  hidden(): void {
    this.#shownAt = null;
    this.#input = null;
    this.#focus = null;
  }

  /** When the buttons arm (on this clock), or null while the dialog is not visible. */
  get armsAt(): number | null {
    return this.#shownAt === null ? null : this.#shownAt + this.#delayMs;
  }

  /** Whether the buttons are armed now. */
  isArmed(): boolean {
    const armsAt = this.armsAt;
    return armsAt !== null && this.#now() >= armsAt;
  }

  /**
   * The focus moved to `target` inside the dialog, now (null: it left the dialog, or went to
   * the dialog box itself).
   *
   * @param byPerson - the person's own Tab (not an auto-repeat) or pointer press moved it; a
   *   focus the host's code moved, or a held Tab, is false.
   */
  focusMoved(target: object | null, byPerson: boolean): void {
    this.#focus = target === null ? null : { target, at: this.#now(), byPerson };
  }

  /**
   * When a key press on `target` counts (on this clock): the person moved the focus there after
   * the dialog armed, and it has been there for the focus delay. Null when no key press on it
   * can count until the person moves the focus there again.
   */
  keyArmsAt(target: object | null): number | null {
    const focus = this.#focus;
    const armsAt = this.armsAt;
    if (focus === null || target === null || focus.target !== target) return null;
    if (!focus.byPerson || armsAt === null || focus.at < armsAt) return null;
    return focus.at + this.#focusDelayMs;
  }

  /**
   * A key (Enter or Space) or a pointer went down inside the dialog, now. The newest press
   * counts; an older one is forgotten.
   *
   * @param input.target - the button it went down on, or null.
   * @param input.repeat - the key press is an auto-repeat (`KeyboardEvent.repeat`).
   */
  inputStarted(input: { kind: "key" | "pointer"; target: object | null; repeat?: boolean }): void {
    this.#input = {
      kind: input.kind,
      at: this.#now(),
      target: input.target,
      repeat: input.repeat ?? false,
    };
  }

  /**
   * Decides whether `button`'s activation (its click) may act, now: see the rules at the top
   * of this file. A click with no press seen at all (assistive technology activates buttons
   * that way; a view cannot) may act once the dialog is armed. The press is used up either
   * way: one press, one decision.
   *
   * @returns `"act"`, or why not: `"early"` (before the dialog armed, a held key, a key too
   *   soon after the focus came) or `"not-chosen"` (not on this button, or on a button the
   *   person did not move to themselves).
   */
  activate(button: object): ConsentVerdict {
    const input = this.#input;
    this.#input = null;
    const armsAt = this.armsAt;
    if (armsAt === null || this.#now() < armsAt) return "early";
    if (input === null) return "act";
    if (input.repeat || input.at < armsAt) return "early";
    if (input.target !== button) return "not-chosen";
    if (input.kind === "pointer") return "act";
    const keyArmsAt = this.keyArmsAt(button);
    if (keyArmsAt === null) return "not-chosen";
    return input.at >= keyArmsAt ? "act" : "early";
  }
}
