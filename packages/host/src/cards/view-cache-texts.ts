/** One held copy of a view page's HTML; whoever uses the text keeps this object. */
export interface ViewText {
  readonly html: string;
}

/**
 * The HTML of the view pages every session holds, one copy per distinct text. Each session still
 * reads its pages from its own sources, for its own person, and keeps them in its own
 * view cache; only a text equal to one already held (same sha256, same characters) is
 * swapped for the held copy, so a thousand sessions of one app hold its page once instead of a
 * thousand times. No session is ever given a text its own source did not serve. A text is held
 * while some session keeps it, then dropped.
 */
export class ViewTexts {
  readonly #texts = new Map<string, WeakRef<ViewText>>();
  readonly #forget = new FinalizationRegistry<string>((hash) => {
    // A later text under the same hash may have taken the slot; drop only a dead one.
    if (this.#texts.get(hash)?.deref() === undefined) this.#texts.delete(hash);
  });

  /**
   * The held copy of `html`, whose sha256 is `hash`: the one already held when it is the same
   * text, else `html` itself, held from now on. Keep the returned object for as long as the text
   * is used; the copy may be dropped once no one does.
   */
  intern(hash: string, html: string): ViewText {
    const held = this.#texts.get(hash)?.deref();
    if (held !== undefined && held.html === html) return held;
    const text: ViewText = { html };
    this.#texts.set(hash, new WeakRef(text));
    this.#forget.register(text, hash);
    return text;
  }

  /** How many distinct texts are held (some may be waiting to be collected). */
  get size(): number {
    return this.#texts.size;
  }
}

/** The texts of the whole process: the view caches of every session share them. */
export const sharedViewTexts = new ViewTexts();
