import type { ConversationSummary } from "@mcp-chat-host/protocol";
import { create } from "zustand";

/** The person's conversation list and which one is open. */
export interface ConversationsState {
  conversations: ConversationSummary[];
  /** The open conversation, or null before the first message of a new one. */
  currentId: string | null;
  /** The last failed list action, shown above the list. */
  error: string | null;
  /** Replaces the list (sorted most recently updated first). */
  setList(conversations: ConversationSummary[]): void;
  /** Adds or replaces one entry. */
  upsert(conversation: ConversationSummary): void;
  /** Removes one entry. */
  remove(conversationId: string): void;
  /** Sets the open conversation. */
  setCurrent(conversationId: string | null): void;
  /** Shows or clears the list's error. */
  setError(message: string | null): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

function sorted(conversations: ConversationSummary[]): ConversationSummary[] {
  return [...conversations].sort((left, right) => right.updatedAt - left.updatedAt);
}

/** The conversations store. */
export const useConversationsStore = create<ConversationsState>()((set) => ({
  conversations: [],
  currentId: null,
  error: null,
  setList(conversations) {
    set({ conversations: sorted(conversations) });
  },
  upsert(conversation) {
    set((state) => ({
      conversations: sorted([
        ...state.conversations.filter((known) => known.id !== conversation.id),
        conversation,
      ]),
    }));
  },
  remove(conversationId) {
    set((state) => ({
      conversations: state.conversations.filter((known) => known.id !== conversationId),
      currentId: state.currentId === conversationId ? null : state.currentId,
    }));
  },
  setCurrent(conversationId) {
    set({ currentId: conversationId });
  },
  setError(message) {
    set({ error: message });
  },
  reset() {
    set({ conversations: [], currentId: null, error: null });
  },
}));
