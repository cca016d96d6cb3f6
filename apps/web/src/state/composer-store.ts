import { create } from "zustand";

/** A message that was sent but not acknowledged, so a retry reuses its id (no double storing). */
export interface PendingSend {
  text: string;
  clientId: string;
}

/** Each chat's input box: its text, whether it is sending, its error, and focus requests. */
export interface ComposerState {
  texts: Record<string, string>;
  sending: Record<string, boolean>;
  errors: Record<string, string | null>;
  /** Bumped to ask a chat's input box to take the focus. */
  focusRequests: Record<string, number>;
  pending: Record<string, PendingSend | undefined>;
  /** Sets a chat's text (typing). */
  setText(chatId: string, text: string): void;
  /** Puts an app's text in a chat's box and focuses it (`composer:fill`). */
  fill(chatId: string, text: string): void;
  /** Marks a chat as sending or not. */
  setSending(chatId: string, sending: boolean): void;
  /** Shows or clears a chat's send error. */
  setError(chatId: string, message: string | null): void;
  /** Remembers or forgets the unacknowledged send of a chat. */
  setPending(chatId: string, pending: PendingSend | undefined): void;
  /** Asks a chat's box to take the focus. */
  requestFocus(chatId: string): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

/** The composer store. */
export const useComposerStore = create<ComposerState>()((set) => ({
  texts: {},
  sending: {},
  errors: {},
  focusRequests: {},
  pending: {},
  setText(chatId, text) {
    set((state) => ({ texts: { ...state.texts, [chatId]: text } }));
  },
  fill(chatId, text) {
    set((state) => ({
      texts: { ...state.texts, [chatId]: text },
      errors: { ...state.errors, [chatId]: null },
      focusRequests: { ...state.focusRequests, [chatId]: (state.focusRequests[chatId] ?? 0) + 1 },
    }));
  },
  setSending(chatId, sending) {
    set((state) => ({ sending: { ...state.sending, [chatId]: sending } }));
  },
  setError(chatId, message) {
    set((state) => ({ errors: { ...state.errors, [chatId]: message } }));
  },
  setPending(chatId, pending) {
    set((state) => ({ pending: { ...state.pending, [chatId]: pending } }));
  },
  requestFocus(chatId) {
    set((state) => ({
      focusRequests: { ...state.focusRequests, [chatId]: (state.focusRequests[chatId] ?? 0) + 1 },
    }));
  },
  reset() {
    set({ texts: {}, sending: {}, errors: {}, focusRequests: {}, pending: {} });
  },
}));
