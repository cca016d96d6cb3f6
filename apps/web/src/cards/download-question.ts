import type { PendingDownload } from "../state/types/card-view-state";

/**
 * The one open download question of a card. A second request while one is open is declined, and
 * closing the card declines the open one.
 */
export class DownloadQuestion {
  #answer: ((accepted: boolean) => void) | null = null;
  readonly #show: (pending: PendingDownload | null) => void;

  /** @param show - shows a question to the person (null: hides it). */
  constructor(show: (pending: PendingDownload | null) => void) {
    this.#show = show;
  }

  /**
   * Asks the person.
   *
   * @returns their answer; false at once when another question is open.
   */
  ask(question: Omit<PendingDownload, "answer">): Promise<boolean> {
    if (this.#answer !== null) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const answer = (accepted: boolean) => {
        if (this.#answer !== answer) return;
        this.#answer = null;
        this.#show(null);
        resolve(accepted);
      };
      this.#answer = answer;
      this.#show({ ...question, answer });
    });
  }

  /** Answers the open question, if any (the first answer counts). */
  answer(accepted: boolean): void {
    this.#answer?.(accepted);
  }
}
