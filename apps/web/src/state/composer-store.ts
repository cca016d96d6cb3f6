import { create } from "zustand";

/** A message that was sent but not acknowledged, so a retry reuses its id (no double storing). */
export interface PendingSend {
  text: string;
  clientId: string;
}

/** The app whose view wrote (some of) a chat's box, in compose mode. */
export interface AppAuthor {
  instanceId: string;
  /** The card's title, or the source's name when the card is not known. */
  title: string;
  source: string;
}

/** An app's message waiting for the person to put it in the box, or dismiss it. */
export interface AppSuggestion extends AppAuthor {
  text: string;
}

/**
 * Each chat's input box: its text, whether it is sending, its error, focus requests, whether the
 * person is in it, and what apps wrote (issue 9, item 3: an app's message never replaces or
 * slips into what the person is typing, never takes the focus, and always says which app wrote it).
 */
export interface ComposerState {
  texts: Record<string, string>;
  sending: Record<string, boolean>;
  errors: Record<string, string | null>;
  /** Bumped to ask a chat's input box to take the focus. */
  focusRequests: Record<string, number>;
  pending: Record<string, PendingSend | undefined>;
  /** Whether the person's focus is in a chat's box. */
  focused: Record<string, boolean>;
  /** The app that wrote the text in a chat's box, until it is sent or cleared. */
  authors: Record<string, AppAuthor | null>;
  /** An app's message waiting for the person, per chat (the newest one). */
  suggestions: Record<string, AppSuggestion | null>;
  /** Sets a chat's text (typing). An emptied box no longer holds an app's text. */
  setText(chatId: string, text: string): void;
  /**
   * An app's message for a chat's box (`composer:fill`). An empty box the person is not in takes
   * it (without the focus); otherwise it waits as a suggestion, so nothing the person typed is
   * replaced and no key they are pressing sends it. Either way the app is named.
   */
  offerAppMessage(chatId: string, text: string, author: AppAuthor): void;
  /** The person puts the suggestion in the box: alone in an empty box, else below their text. */
  acceptSuggestion(chatId: string): void;
  /** The person dismisses the suggestion. */
  dismissSuggestion(chatId: string): void;
  /** The person clears what an app wrote (the box empties). */
  clearAppText(chatId: string): void;
  /** Records whether the person's focus is in a chat's box. */
  setFocused(chatId: string, focused: boolean): void;
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

function bumped(requests: Record<string, number>, chatId: string): Record<string, number> {
  return { ...requests, [chatId]: (requests[chatId] ?? 0) + 1 };
}

/** The composer store. */
export const useComposerStore = create<ComposerState>()((set) => ({
  texts: {},
  sending: {},
  errors: {},
  focusRequests: {},
  pending: {},
  focused: {},
  authors: {},
  suggestions: {},
  setText(chatId, text) {
    set((state) => ({
      texts: { ...state.texts, [chatId]: text },
      authors: text === "" ? { ...state.authors, [chatId]: null } : state.authors,
    }));
  },
  offerAppMessage(chatId, text, author) {
    set((state) => {
      const box = state.texts[chatId] ?? "";
      if (box === "" && state.focused[chatId] !== true && state.sending[chatId] !== true) {
        return {
          texts: { ...state.texts, [chatId]: text },
          errors: { ...state.errors, [chatId]: null },
          authors: { ...state.authors, [chatId]: author },
          suggestions: { ...state.suggestions, [chatId]: null },
        };
      }
      return { suggestions: { ...state.suggestions, [chatId]: { ...author, text } } };
    });
  },
  acceptSuggestion(chatId) {
    set((state) => {
      const suggestion = state.suggestions[chatId];
      if (suggestion == null) return state;
      const box = state.texts[chatId] ?? "";
      const { text, ...author } = suggestion;
      return {
        texts: { ...state.texts, [chatId]: box.trim() === "" ? text : `${box}\n\n${text}` },
        errors: { ...state.errors, [chatId]: null },
        authors: { ...state.authors, [chatId]: author },
        suggestions: { ...state.suggestions, [chatId]: null },
        // The person's own click: the box may take the focus now.
        focusRequests: bumped(state.focusRequests, chatId),
      };
    });
  },
  dismissSuggestion(chatId) {
    set((state) => ({ suggestions: { ...state.suggestions, [chatId]: null } }));
  },
  clearAppText(chatId) {
    set((state) => ({
      texts: { ...state.texts, [chatId]: "" },
      authors: { ...state.authors, [chatId]: null },
    }));
  },
  setFocused(chatId, focused) {
    set((state) => ({ focused: { ...state.focused, [chatId]: focused } }));
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
    set((state) => ({ focusRequests: bumped(state.focusRequests, chatId) }));
  },
  reset() {
    set({
      texts: {},
      sending: {},
      errors: {},
      focusRequests: {},
      pending: {},
      focused: {},
      authors: {},
      suggestions: {},
    });
  },
}));
