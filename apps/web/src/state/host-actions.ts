// The actions that change several slices at once: one server event or snapshot, one `set`
// (zustand's flux-inspired practice: dispatch at the root, update one or more slices).
import type { ConversationSnapshot } from "@mcp-chat-host/protocol";
import { cardsById, paneEntries } from "./cards-slice";
import { sortedConversations } from "./conversations-slice";
import type { HostSliceCreator, HostState } from "./host-state";
import {
  messagesByChatOf,
  noEarlierMessages,
  oldestLoadedSeq,
  withChangedMessage,
  withMessage,
} from "./messages-slice";
import { applyReplyChunk } from "./reply-chunks";
import { withToolClock } from "./tools-slice";
import type { HostActions } from "./types/host-actions";

type ConversationFacts = Pick<
  HostState,
  | "messagesByChat"
  | "earlierMessages"
  | "runningChats"
  | "toolClocks"
  | "currentConversationId"
  | "conversations"
>;

/** The facts of the conversation a snapshot shows (null: an empty one). */
function conversationFacts(
  state: HostState,
  snapshot: ConversationSnapshot | null,
  conversations: HostState["conversations"],
): ConversationFacts {
  const messages = snapshot?.messages ?? [];
  const toolCallIds = new Set(
    messages.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === "tool" ? [part.toolCallId] : [])),
    ),
  );
  return {
    messagesByChat: messagesByChatOf(messages),
    earlierMessages: { ...noEarlierMessages, more: snapshot?.earlier ?? false },
    runningChats: Object.fromEntries((snapshot?.running ?? []).map((chatId) => [chatId, true])),
    // What the tab heard live of the time of the calls still shown.
    toolClocks: Object.fromEntries(
      Object.entries(state.toolClocks).filter(([id]) => toolCallIds.has(id)),
    ),
    currentConversationId: snapshot?.conversation.id ?? null,
    conversations:
      snapshot === null
        ? conversations
        : sortedConversations([
            ...conversations.filter((known) => known.id !== snapshot.conversation.id),
            snapshot.conversation,
          ]),
  };
}

/** The root actions' slice. */
export const createHostActions: HostSliceCreator<HostActions> = (set, get) => ({
  applySessionSnapshot(snapshot) {
    set((state) => ({
      sessionId: snapshot.sessionId,
      user: snapshot.user,
      chats: snapshot.chats,
      model: snapshot.model,
      signOut: snapshot.signOut === true,
      cards: cardsById([...(snapshot.current?.cards ?? []), ...snapshot.panes]),
      ...conversationFacts(state, snapshot.current, sortedConversations(snapshot.conversations)),
    }));
  },
  applyConversationSnapshot(snapshot) {
    set((state) => ({
      cards: { ...paneEntries(state.cards), ...cardsById(snapshot?.cards ?? []) },
      ...conversationFacts(state, snapshot, state.conversations),
    }));
  },
  earlierArrived(conversationId, before, page) {
    set((state) => {
      if (state.currentConversationId !== conversationId) return state;
      if (!state.earlierMessages.loading || oldestLoadedSeq(state) !== before) return state;
      const messagesByChat = { ...state.messagesByChat };
      for (const message of page.messages) {
        if (message.seq >= before) continue;
        messagesByChat[message.chatId] = withMessage(messagesByChat[message.chatId], message);
      }
      return {
        messagesByChat,
        cards: { ...cardsById(page.cards), ...state.cards },
        earlierMessages: { more: page.earlier, loading: false, error: null },
      };
    });
  },
  messageArrived(message) {
    const state = get();
    const current = state.currentConversationId;
    if (current !== null && current !== message.conversationId) return false;
    if (current !== null && state.earlierMessages.more) {
      const oldest = oldestLoadedSeq(state);
      if (oldest !== null && message.seq < oldest) return true;
    }
    set((state) => ({
      currentConversationId: message.conversationId,
      messagesByChat: {
        ...state.messagesByChat,
        [message.chatId]: withMessage(state.messagesByChat[message.chatId], message),
      },
    }));
    return true;
  },
  replyChunkArrived(event) {
    const state = get();
    if (state.currentConversationId !== event.conversationId) return null;
    const message = state.messagesByChat[event.chatId]?.byId[event.messageId];
    if (message === undefined) return null;
    const outcome = applyReplyChunk(message.parts, event.chunk);
    let cards = state.cards;
    const opened = outcome.openedCard;
    if (opened !== null && cards[opened.instanceId] === undefined) {
      cards = { ...cards, ...cardsById([opened]) };
    }
    if (outcome.withdrawnCard !== null && cards[outcome.withdrawnCard] !== undefined) {
      cards = { ...cards };
      delete cards[outcome.withdrawnCard];
    }
    const { messagesByChat } = withChangedMessage(state, event.chatId, event.messageId, (known) =>
      outcome.parts === known.parts ? known : { ...known, parts: outcome.parts },
    );
    set({ cards, messagesByChat, toolClocks: withToolClock(state.toolClocks, event.chunk) });
    return outcome.changedTool;
  },
  cardOpened(card) {
    set((state) => {
      if (state.cards[card.instanceId] !== undefined) return state;
      const current = state.currentConversationId;
      const elsewhere =
        card.kind === "card" &&
        card.conversationId !== null &&
        current !== null &&
        card.conversationId !== current;
      return elsewhere ? state : { cards: { ...state.cards, ...cardsById([card]) } };
    });
  },
});
