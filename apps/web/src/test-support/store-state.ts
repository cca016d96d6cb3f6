import type { CardDescriptor, ChatMessage } from "@mcp-chat-host/protocol";
import { cardsById } from "../state/cards-slice";
import { useHostStore } from "../state/host-store";
import { messagesByChatOf } from "../state/messages-slice";

/**
 * Puts messages in the store as the open conversation's, as a snapshot would (tests).
 *
 * @param conversationId - the open conversation (null: none).
 * @param running - the chats whose turn is running.
 */
export function showMessages(
  conversationId: string | null,
  messages: ChatMessage[],
  running: string[] = [],
): void {
  useHostStore.setState({
    currentConversationId: conversationId,
    messagesByChat: messagesByChatOf(messages),
    runningChats: Object.fromEntries(running.map((chatId) => [chatId, true])),
  });
}

/** Puts cards (and panes) in the store, as a snapshot would (tests). */
export function showCards(cards: CardDescriptor[], panes: CardDescriptor[] = []): void {
  useHostStore.setState({ cards: cardsById([...cards, ...panes]) });
}
