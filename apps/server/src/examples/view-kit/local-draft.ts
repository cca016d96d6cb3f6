/// <reference lib="dom" />
// A draft kept in the browser's localStorage. A sandboxed frame may have no storage at all (the
// browser throws on access), so every access is guarded and a missing store simply keeps nothing.

/**
 * Reads a stored draft.
 *
 * @returns the text, or `undefined` when nothing is stored or storage is unavailable.
 */
export function readDraft(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stores a draft; does nothing when storage is unavailable or full.
 *
 * @returns true when the draft was stored.
 */
export function writeDraft(key: string, text: string): boolean {
  try {
    window.localStorage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}
