import { limits } from "@mcp-chat-host/protocol";
import type { HostSliceCreator, HostState } from "./host-state";
import type { ComposerEntry, ComposerSlice } from "./types/composer";

/** A box nobody has touched. */
const emptyComposer: ComposerEntry = {
  text: "",
  sending: false,
  error: null,
  focusRequest: 0,
  pending: null,
  focused: false,
  author: null,
  suggestion: null,
  attachments: [],
};

/** A chat's box (the same empty one for a chat never touched, so selectors stay stable). */
export function composerOf(state: Pick<HostState, "composers">, chatId: string): ComposerEntry {
  return state.composers[chatId] ?? emptyComposer;
}

/** The composer slice. */
export const createComposerSlice: HostSliceCreator<ComposerSlice> = (set, get) => {
  function change(
    chatId: string,
    changed: (entry: ComposerEntry) => Partial<ComposerEntry> | null,
  ): void {
    set((state) => {
      const entry = composerOf(state, chatId);
      const patch = changed(entry);
      if (patch === null) return state;
      return { composers: { ...state.composers, [chatId]: { ...entry, ...patch } } };
    });
  }
  return {
    composers: {},
    setComposerText(chatId, text) {
      change(chatId, (entry) => ({ text, author: text === "" ? null : entry.author }));
    },
    offerAppMessage(chatId, text, author) {
      change(chatId, (entry) =>
        entry.text === "" && !entry.focused && !entry.sending
          ? { text, error: null, author, suggestion: null }
          : { suggestion: { ...author, text } },
      );
    },
    acceptSuggestion(chatId) {
      change(chatId, (entry) => {
        if (entry.suggestion === null) return null;
        const { text, ...author } = entry.suggestion;
        return {
          text: entry.text.trim() === "" ? text : `${entry.text}\n\n${text}`,
          error: null,
          author,
          suggestion: null,
          // The person's own click: the box may take the focus now.
          focusRequest: entry.focusRequest + 1,
        };
      });
    },
    dismissSuggestion(chatId) {
      change(chatId, () => ({ suggestion: null }));
    },
    clearAppText(chatId) {
      change(chatId, () => ({ text: "", author: null }));
    },
    setComposerFocused(chatId, focused) {
      change(chatId, () => ({ focused }));
    },
    patchComposer(chatId, patch) {
      change(chatId, () => patch);
    },
    addAttachment(chatId, resource) {
      const { attachments } = composerOf(get(), chatId);
      const attached = attachments.some(
        (entry) => entry.source === resource.source && entry.uri === resource.uri,
      );
      if (attached || attachments.length >= limits.maxAttachments) return false;
      change(chatId, (entry) => ({ attachments: [...entry.attachments, resource] }));
      return true;
    },
    removeAttachment(chatId, source, uri) {
      change(chatId, (entry) => ({
        attachments: entry.attachments.filter(
          (attached) => attached.source !== source || attached.uri !== uri,
        ),
      }));
    },
    requestComposerFocus(chatId) {
      change(chatId, (entry) => ({ focusRequest: entry.focusRequest + 1 }));
    },
  };
};
