// The person's answers about a view's powerful permissions, per source.
//
// Kept in this browser's localStorage, on the host page's origin, not in the server's store:
// the permission itself is the browser's (its own grant of the camera is per browser profile
// and per host origin, and a view only ever uses it in this browser), so the answer lives beside
// it; a browser that has never been asked asks again, which is the safe way round. Views cannot
// reach this storage (each runs on a sandbox origin of its own). Answers are kept per user of
// the host as well, for hosts that sign several people in on one browser.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import { pagePermissionNames } from "@mcp-chat-host/protocol";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

/** The person's answer about one permission of one source. */
export type PermissionAnswer = "granted" | "refused";

/** The answers of one source. */
export type SourceAnswers = Partial<Record<PagePermissionName, PermissionAnswer>>;

/** Where the answers are kept (zustand's `persist` format). */
const permissionStorageKey = "mcp-chat-host:permission-answers:v2";

/** The store of answers, keyed by {@link answerKey}. */
export interface PermissionGrantsState {
  answers: Readonly<Record<string, SourceAnswers>>;
  /** Records the person's answer for these permissions of a source (and saves it). */
  answer(key: string, names: readonly PagePermissionName[], answer: PermissionAnswer): void;
}

/**
 * The key of a source's answers: the signed-in user (empty without one) and the source.
 *
 * @returns the key.
 */
export function answerKey(userId: string | null | undefined, source: string): string {
  return `${userId ?? ""}\u0000${source}`;
}

function isAnswer(value: unknown): value is PermissionAnswer {
  return value === "granted" || value === "refused";
}

/** The well-formed answers among what storage held (anything may be there). */
function wellFormedAnswers(saved: unknown): Record<string, SourceAnswers> {
  if (saved === null || typeof saved !== "object") return {};
  const answers: Record<string, SourceAnswers> = {};
  for (const [key, value] of Object.entries(saved as Record<string, unknown>)) {
    if (value === null || typeof value !== "object") continue;
    const source: SourceAnswers = {};
    for (const name of pagePermissionNames) {
      const answer = (value as Record<string, unknown>)[name];
      if (isAnswer(answer)) source[name] = answer;
    }
    answers[key] = source;
  }
  return answers;
}

/**
 * The permission answers store, saved in this browser (`persist`; where storage is full or
 * disabled the answers last as long as the page).
 */
export const usePermissionGrantsStore = create<PermissionGrantsState>()(
  persist(
    (set) => ({
      answers: {},
      answer(key, names, answer) {
        set((state) => {
          const source: SourceAnswers = { ...state.answers[key] };
          for (const name of names) source[name] = answer;
          return { answers: { ...state.answers, [key]: source } };
        });
      },
    }),
    {
      name: permissionStorageKey,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ answers: state.answers }),
      merge: (saved, current) => ({
        ...current,
        answers: wellFormedAnswers((saved as { answers?: unknown } | undefined)?.answers),
      }),
    },
  ),
);

/** Names of these permissions the person granted a source. */
export function grantedOf(
  answers: SourceAnswers | undefined,
  names: readonly PagePermissionName[] = pagePermissionNames,
): PagePermissionName[] {
  return names.filter((name) => answers?.[name] === "granted");
}

/** Names of these permissions the person has not answered for a source yet. */
export function undecidedOf(
  answers: SourceAnswers | undefined,
  names: readonly PagePermissionName[],
): PagePermissionName[] {
  return names.filter((name) => answers?.[name] === undefined);
}
