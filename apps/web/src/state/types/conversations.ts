import type { ConversationSummary } from "@mcp-chat-host/protocol";

/** The person's conversation list and which one is open. */
export interface ConversationsSlice {
  /** Most recently updated first. */
  conversations: ConversationSummary[];
  /**
   * The open conversation, or null before the first message of a new one. Events of any other
   * conversation are ignored.
   */
  currentConversationId: string | null;
  /** The last failed list action, shown above the list. */
  conversationsError: string | null;
  /** Replaces the list. */
  setConversations(conversations: ConversationSummary[]): void;
  /** Adds or replaces one entry. */
  upsertConversation(conversation: ConversationSummary): void;
  /** Removes one entry (the open one too: then none is open). */
  removeConversation(conversationId: string): void;
  /** Shows or clears the list's error. */
  setConversationsError(message: string | null): void;
}
