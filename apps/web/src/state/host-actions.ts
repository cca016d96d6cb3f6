// The actions that change several slices at once: one server event or snapshot, one `set`
// (zustand's flux-inspired practice: dispatch at the root, update one or more slices).
import type { ConversationSnapshot, MessagePart } from "@mcp-chat-host/protocol";
import { cardOriginsOf, cardsById, paneEntries } from "./cards-slice";
import { sortedConversations } from "./conversations-slice";
import type { HostSliceCreator, HostState } from "./host-state";
import {
  messagesByChatOf,
  noEarlierMessages,
  oldestLoadedSeq,
  withChangedMessage,
  withMessage,
} from "./messages-slice";
import { placePart } from "./part-placement";
import { noActivity } from "./tools-slice";
import type { HostActions } from "./types/host-actions";
import type { ToolActivity } from "./types/tools";

type ConversationFacts = Pick<
  HostState,
  | "messagesByChat"
  | "earlierMessages"
  | "runningChats"
  | "toolActivity"
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
      message.parts.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : [])),
    ),
  );
  return {
    messagesByChat: messagesByChatOf(messages),
    earlierMessages: { ...noEarlierMessages, more: snapshot?.earlier ?? false },
    runningChats: Object.fromEntries((snapshot?.running ?? []).map((chatId) => [chatId, true])),
    // What the page heard live of the calls still shown.
    toolActivity: Object.fromEntries(
      Object.entries(state.toolActivity).filter(([id]) => toolCallIds.has(id)),
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

/** The message of a chat holding a tool call, or else the chat's last assistant message. */
function messageForToolCall(
  state: HostState,
  chatId: string,
  toolCallId: string,
): { messageId: string; hasCall: boolean } | null {
  const chat = state.messagesByChat[chatId];
  if (chat === undefined) return null;
  for (const id of chat.order) {
    const parts = chat.byId[id]?.parts ?? [];
    if (parts.some((part) => part.type === "tool-call" && part.toolCallId === toolCallId)) {
      return { messageId: id, hasCall: true };
    }
  }
  for (let index = chat.order.length - 1; index >= 0; index--) {
    const id = chat.order[index];
    if (id !== undefined && chat.byId[id]?.role === "assistant") {
      return { messageId: id, hasCall: false };
    }
  }
  return null;
}

function withActivity(
  state: HostState,
  toolCallId: string,
  activity: Partial<ToolActivity>,
): HostState["toolActivity"] {
  const known = state.toolActivity[toolCallId] ?? noActivity;
  return { ...state.toolActivity, [toolCallId]: { ...known, ...activity } };
}

function withPart(
  state: HostState,
  chatId: string,
  messageId: string,
  part: MessagePart,
): HostState["messagesByChat"] {
  const origins = cardOriginsOf(state);
  return withChangedMessage(state, chatId, messageId, (message) => {
    const parts = placePart(message.parts, part, origins);
    return parts === message.parts ? message : { ...message, parts };
  }).messagesByChat;
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
  toolStarted(event) {
    set((state) => {
      if (state.currentConversationId !== event.conversationId) return state;
      const part: MessagePart = {
        type: "tool-call",
        toolCallId: event.toolCallId,
        name: event.name,
        arguments: event.arguments,
        ...(event.source === undefined ? {} : { source: event.source }),
        ...(event.modelName === undefined ? {} : { modelName: event.modelName }),
      };
      return {
        toolActivity: withActivity(state, event.toolCallId, {
          status: "running",
          startedAt: event.startedAt,
          progress: null,
          value: undefined,
          durationMs: null,
          reason: null,
        }),
        messagesByChat: withPart(state, event.chatId, event.messageId, part),
      };
    });
  },
  toolRefused(event) {
    set((state) => {
      const toolActivity = withActivity(state, event.toolCallId, {
        status: "refused",
        progress: null,
        value: undefined,
        durationMs: null,
        reason: event.reason,
      });
      const place = messageForToolCall(state, event.chatId, event.toolCallId);
      if (place === null || place.hasCall) return { toolActivity };
      const part: MessagePart = {
        type: "tool-call",
        toolCallId: event.toolCallId,
        name: event.name,
        arguments: {},
      };
      return { toolActivity, messagesByChat: withPart(state, event.chatId, place.messageId, part) };
    });
  },
  cardWithdrawn(instanceId) {
    set((state) => {
      const entry = state.cards[instanceId];
      if (entry === undefined) return state;
      const cards = { ...state.cards };
      delete cards[instanceId];
      const { chatId, messageId } = entry.descriptor;
      if (chatId === null || messageId === undefined) return { cards };
      const { messagesByChat } = withChangedMessage(state, chatId, messageId, (message) => {
        const parts = message.parts.filter(
          (part) => !(part.type === "card" && part.instanceId === instanceId),
        );
        return parts.length === message.parts.length ? message : { ...message, parts };
      });
      return { cards, messagesByChat };
    });
  },
  cardOpened(card) {
    set((state) => {
      const cards =
        state.cards[card.instanceId] === undefined
          ? { ...state.cards, ...cardsById([card]) }
          : state.cards;
      if (card.kind === "pane") return { cards };
      const current = state.currentConversationId;
      if (card.conversationId !== null && current !== null && card.conversationId !== current) {
        return state;
      }
      if (card.messageId === undefined || card.chatId === null) return { cards };
      const withCard = { ...state, cards };
      return {
        cards,
        messagesByChat: withPart(withCard, card.chatId, card.messageId, {
          type: "card",
          instanceId: card.instanceId,
        }),
      };
    });
  },
});
