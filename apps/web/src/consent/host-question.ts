// The host is about to ask the person something that can approve (a tool call, full screen, a
// permission, a download, a server's question). What could cover or crowd the question makes way
// first: a card in full screen leaves it. The consent folder owns this signal and the cards
// folder answers it (the app wires `cards/fullscreen-owner.ts` to it), so consent questions need
// not know about cards.

const listeners = new Set<() => void>();

/**
 * Calls `listener` each time a host question appears.
 *
 * @returns a function that stops the calls.
 */
export function onHostQuestion(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** A host question appears (called by `useConsentArming`, once per dialog). */
export function hostQuestionShown(): void {
  for (const listener of [...listeners]) listener();
}
