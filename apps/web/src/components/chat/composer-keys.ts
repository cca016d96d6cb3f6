/** The parts of a keyboard event the composer looks at. */
export interface ComposerKey {
  key: string;
  shiftKey: boolean;
  /** True while an input method is composing text (Enter then confirms the composition). */
  isComposing: boolean;
}

/**
 * What a key press in the composer does: Enter sends, Shift+Enter (and Enter while an input
 * method is composing) is left to the text box, which adds a new line or confirms the text.
 *
 * @param event - the key press.
 * @returns `send`, or `default` to let the text box handle it.
 */
export function composerKeyAction(event: ComposerKey): "send" | "default" {
  if (event.key !== "Enter" || event.shiftKey || event.isComposing) return "default";
  return "send";
}
