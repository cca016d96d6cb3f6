import type { PagePermissionName } from "@mcp-chat-host/protocol";
import {
  answerKey,
  usePermissionGrantsStore,
  type PermissionAnswer,
  type SourceAnswers,
} from "../state/permission-grants-store";
import { useHostStore } from "../state/host-store";

/** The person's permission answers as a card uses them (injectable for tests). */
export interface PermissionGrantsAccess {
  /** The answers the person gave for a source, if any. */
  answersFor(source: string): SourceAnswers | undefined;
  /** Records the person's answer for these permissions of a source. */
  answer(source: string, names: readonly PagePermissionName[], answer: PermissionAnswer): void;
  /**
   * Calls `listener` whenever the answers of `source` change.
   *
   * @returns a function that stops listening.
   */
  subscribe(source: string, listener: () => void): () => void;
}

function keyOf(source: string): string {
  return answerKey(useHostStore.getState().user?.id, source);
}

/** The page's answers (`usePermissionGrantsStore`), for the signed-in user. */
export const pagePermissionGrants: PermissionGrantsAccess = {
  answersFor: (source) => usePermissionGrantsStore.getState().answers[keyOf(source)],
  answer: (source, names, answer) =>
    usePermissionGrantsStore.getState().answer(keyOf(source), names, answer),
  subscribe: (source, listener) => {
    let before = usePermissionGrantsStore.getState().answers[keyOf(source)];
    return usePermissionGrantsStore.subscribe((state) => {
      const now = state.answers[keyOf(source)];
      if (now === before) return;
      before = now;
      listener();
    });
  },
};

/**
 * One question about a source's permissions at a time: cards of the same source that open
 * together wait for the first answer instead of asking the same thing again.
 */
const asking = new Map<string, Promise<unknown>>();

/**
 * Runs `ask` once no other question about `source` is open.
 *
 * @returns what `ask` returns.
 */
export async function oneQuestionPerSource<T>(source: string, ask: () => Promise<T>): Promise<T> {
  // Bounded: each turn waits for the question open when it looked, and there is one per card.
  for (let turn = 0; turn < 100; turn++) {
    const open = asking.get(source);
    if (open === undefined) break;
    await open.catch(() => undefined);
  }
  const running = ask();
  asking.set(source, running);
  try {
    return await running;
  } finally {
    if (asking.get(source) === running) asking.delete(source);
  }
}
