// When a consent button (allow a call, allow full screen, allow the camera) may act. A view can
// ask for consent at a moment of its choosing and tell the person to press keys just then
// ("Press Tab, then Enter"), or rely on a key the person holds down: the press lands in the
// dialog that opened under it. So a consent button acts only when the dialog has been visible for
// a moment, and only for a press that began after that moment: a key held from before (its
// auto-repeat) or a pointer pressed before never counts.

/** How long, in milliseconds, a consent dialog stays unarmed after it became visible. */
export const consentArmDelayMs = 600;

/** What {@link ConsentArming} needs: a clock and the delay. Both injectable for tests. */
export interface ConsentArmingOptions {
  /** The clock, in milliseconds; default `Date.now`. */
  now?: () => number;
  /** The delay; default {@link consentArmDelayMs}. */
  delayMs?: number;
}

/** A press that began inside the dialog. */
interface StartedInput {
  at: number;
  /** An auto-repeated key press (the key was already held down). */
  repeat: boolean;
}

/**
 * The arming state of one consent dialog. The dialog says when it became visible
 * ({@link shown}) or hidden, and reports every Enter, Space or pointer press that begins inside
 * it ({@link inputStarted}); a button asks {@link activate} before it acts.
 */
export class ConsentArming {
  readonly #now: () => number;
  readonly #delayMs: number;
  #shownAt: number | null = null;
  #input: StartedInput | null = null;

  constructor(options: ConsentArmingOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#delayMs = Math.max(0, options.delayMs ?? consentArmDelayMs);
  }

  /** The dialog is visible to the person from now on (a second call keeps the first time). */
  shown(): void {
    if (this.#shownAt === null) this.#shownAt = this.#now();
  }

  /**
   * The dialog is not visible any more (the tab went to the background): it arms again only a
   * moment after it is {@link shown} again, and presses from before count for nothing.
   */
  hidden(): void {
    this.#shownAt = null;
    this.#input = null;
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
   * A key (Enter or Space) or a pointer went down inside the dialog, now. The newest press
   * counts; an older one is forgotten.
   *
   * @param repeat - the key press is an auto-repeat (`KeyboardEvent.repeat`).
   */
  inputStarted(repeat = false): void {
    this.#input = { at: this.#now(), repeat };
  }

  /**
   * Decides whether a button's activation (its click) may act, now. It may when the dialog is
   * armed and the press that led to it began after the dialog armed and was not an auto-repeat.
   * A click with no press seen at all (assistive technology activates buttons that way) may act
   * once the dialog is armed. The press is used up either way: one press, one decision.
   *
   * @returns true when the button may act.
   */
  activate(): boolean {
    const input = this.#input;
    this.#input = null;
    const armsAt = this.armsAt;
    if (armsAt === null || this.#now() < armsAt) return false;
    if (input === null) return true;
    return !input.repeat && input.at >= armsAt;
  }
}
