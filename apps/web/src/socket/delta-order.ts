/** Where a reply's text delta (`text-delta`) goes in the reply the tab shows. */
export type DeltaPlacement =
  /** Text to add at the end (the delta, or its part the tab does not have yet). */
  | { kind: "append"; text: string }
  /** The tab already has all of it (its snapshot was read after the delta was written). */
  | { kind: "known" }
  /** The tab missed text before it: it needs a fresh snapshot. */
  | { kind: "gap" };

/**
 * Places a delta by its `offset` (how much text the reply had before it): text the tab already
 * has is skipped, so no text shows twice, and a delta past the end means some were missed. A
 * delta without an offset is appended.
 *
 * @param textLength - how many characters of text the tab's copy of the reply has.
 * @param event - the delta.
 * @returns where it goes.
 */
export function placeDelta(
  textLength: number,
  event: { delta: string; offset?: number },
): DeltaPlacement {
  if (event.offset === undefined) return { kind: "append", text: event.delta };
  if (event.offset > textLength) return { kind: "gap" };
  const end = event.offset + event.delta.length;
  if (end <= textLength) return { kind: "known" };
  return { kind: "append", text: event.delta.slice(textLength - event.offset) };
}

const freshSnapshotListeners = new Set<() => void>();

/** Registers a function called when the tab needs a fresh snapshot; returns its removal. */
export function onFreshSnapshotWanted(listener: () => void): () => void {
  freshSnapshotListeners.add(listener);
  return () => freshSnapshotListeners.delete(listener);
}

/** Says the tab missed updates and should ask the server for a fresh snapshot. */
export function wantFreshSnapshot(): void {
  for (const listener of freshSnapshotListeners) listener();
}
