import type { ConversationSummary } from "@mcp-chat-host/protocol";
import type { HostSliceCreator } from "./host-state";
import type { ConversationsSlice } from "./types/conversations";

/** The conversations, most recently updated first. */
export function sortedConversations(conversations: ConversationSummary[]): ConversationSummary[] {
  return [...conversations].sort((left, right) => right.updatedAt - left.updatedAt);
}

/** The conversations slice. */
export const createConversationsSlice: HostSliceCreator<ConversationsSlice> = (set) => ({
  conversations: [],
  currentConversationId: null,
  conversationsError: null,
  setConversations(conversations) {
    set({ conversations: sortedConversations(conversations) });
  },
  upsertConversation(conversation) {
    set((state) => ({
      conversations: sortedConversations([
        ...state.conversations.filter((known) => known.id !== conversation.id),
        conversation,
      ]),
    }));
  },
  removeConversation(conversationId) {
    set((state) => ({
      conversations: state.conversations.filter((known) => known.id !== conversationId),
      currentConversationId:
        state.currentConversationId === conversationId ? null : state.currentConversationId,
    }));
  },
  setConversationsError(message) {
    set({ conversationsError: message });
  },
});
