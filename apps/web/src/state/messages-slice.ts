import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
import type { HostSliceCreator, HostState } from "./host-state";
import type { ChatMessages, EarlierMessages, MessagesSlice } from "./types/messages";

const noMessages: ChatMessages = { order: [], byId: {} };

/** Nothing earlier to load. */
export const noEarlierMessages: EarlierMessages = { more: false, loading: false, error: null };

/** The lowest `seq` among the open conversation's loaded messages (every chat), or null. */
export function oldestLoadedSeq(state: Pick<HostState, "messagesByChat">): number | null {
  let oldest: number | null = null;
  for (const chat of Object.values(state.messagesByChat)) {
    const first = chat.order[0] === undefined ? undefined : chat.byId[chat.order[0]];
    if (first !== undefined && (oldest === null || first.seq < oldest)) oldest = first.seq;
  }
  return oldest;
}

/** A chat's messages with one added or replaced, in the server's order. */
export function withMessage(chat: ChatMessages | undefined, message: ChatMessage): ChatMessages {
  const known = chat ?? noMessages;
  const byId = { ...known.byId, [message.id]: message };
  const order = known.order.includes(message.id) ? known.order : [...known.order, message.id];
  // Order by the server's sequence number: events of a reconnect may arrive in any order.
  const sortedOrder = [...order].sort((left, right) => {
    const a = byId[left];
    const b = byId[right];
    if (a === undefined || b === undefined) return 0;
    return a.seq - b.seq || a.createdAt - b.createdAt;
  });
  return { order: sortedOrder, byId };
}

/** Messages grouped by chat, each chat in the server's order. */
export function messagesByChatOf(messages: readonly ChatMessage[]): Record<string, ChatMessages> {
  const chats: Record<string, ChatMessages> = {};
  for (const message of messages)
    chats[message.chatId] = withMessage(chats[message.chatId], message);
  return chats;
}

/**
 * The state with one message changed; the same state when the message is unknown or unchanged.
 */
export function withChangedMessage(
  state: HostState,
  chatId: string,
  messageId: string,
  change: (message: ChatMessage) => ChatMessage,
): Pick<HostState, "messagesByChat"> {
  const chat = state.messagesByChat[chatId];
  const message = chat?.byId[messageId];
  if (chat === undefined || message === undefined) return state;
  const changed = change(message);
  if (changed === message) return state;
  return {
    messagesByChat: {
      ...state.messagesByChat,
      [chatId]: { order: chat.order, byId: { ...chat.byId, [messageId]: changed } },
    },
  };
}

/** The text of a message: its text parts joined. */
export function messageText(message: ChatMessage): string {
  return message.parts
    .filter((part): part is Extract<MessagePart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("");
}

/** The messages slice. */
export const createMessagesSlice: HostSliceCreator<MessagesSlice> = (set) => ({
  messagesByChat: {},
  runningChats: {},
  earlierMessages: noEarlierMessages,
  setRunning(chatId, running) {
    set((state) => ({ runningChats: { ...state.runningChats, [chatId]: running } }));
  },
  earlierRequested() {
    set((state) => ({ earlierMessages: { ...state.earlierMessages, loading: true, error: null } }));
  },
  earlierFailed(error) {
    set((state) =>
      state.earlierMessages.loading
        ? { earlierMessages: { ...state.earlierMessages, loading: false, error } }
        : state,
    );
  },
});
