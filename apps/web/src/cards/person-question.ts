import type { Pending } from "../state/types/card-view-state";
/**
 * The one open yes/no question of a card of some kind (full screen, permissions). A second
 * question while one is open gets no answer (null) at once; {@link withdraw} takes the open one
 * off the screen unanswered (the card closed, or the person decided otherwise).
 */
export class PersonQuestion<Q extends object> {
  #settle: ((answer: boolean | null) => void) | null = null;
  readonly #show: (pending: Pending<Q> | null) => void;

  /** @param show - shows a question to the person (null: hides it). */
  constructor(show: (pending: Pending<Q> | null) => void) {
    this.#show = show;
  }

  /** Whether a question is on screen. */
  get open(): boolean {
    return this.#settle !== null;
  }

  /**
   * Asks the person.
   *
   * @returns true or false, their answer; null when another question was open, or this one was
   *   withdrawn.
   */
  ask(question: Q): Promise<boolean | null> {
    if (this.#settle !== null) return Promise.resolve(null);
    return new Promise<boolean | null>((resolve) => {
      const settle = (answer: boolean | null) => {
        if (this.#settle !== settle) return;
        this.#settle = null;
        this.#show(null);
        resolve(answer);
      };
      this.#settle = settle;
      this.#show({ ...question, answer: (accepted: boolean) => settle(accepted) });
    });
  }

  /** Answers the open question, if any. */
  answer(accepted: boolean): void {
    this.#settle?.(accepted);
  }

  /** Takes the open question off the screen without an answer. */
  withdraw(): void {
    this.#settle?.(null);
  }
}
