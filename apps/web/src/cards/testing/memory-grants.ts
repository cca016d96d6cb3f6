// Permission answers kept in memory, for the card controller's tests (the page keeps them in
// browser storage: consent/permission-grants-access.ts). Only tests import this file.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import type { PermissionGrantsAccess } from "../../consent/permission-grants-access";
import type { PermissionAnswer, SourceAnswers } from "../../state/permission-grants-store";

/** An in-memory {@link PermissionGrantsAccess}, with what it was told. */
export interface MemoryGrants extends PermissionGrantsAccess {
  answers: Map<string, SourceAnswers>;
}

/**
 * @param initial - answers by source.
 * @returns the grants.
 */
export function memoryGrants(initial: Record<string, SourceAnswers> = {}): MemoryGrants {
  const answers = new Map(Object.entries(initial));
  const listeners = new Set<{ source: string; listener: () => void }>();
  return {
    answers,
    answersFor: (source) => answers.get(source),
    answer(source: string, names: readonly PagePermissionName[], answer: PermissionAnswer) {
      const next: SourceAnswers = { ...answers.get(source) };
      for (const name of names) next[name] = answer;
      answers.set(source, next);
      for (const entry of [...listeners]) if (entry.source === source) entry.listener();
    },
    subscribe(source, listener) {
      const entry = { source, listener };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
  };
}
