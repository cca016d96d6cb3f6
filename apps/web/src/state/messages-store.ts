import type { ChatMessage, MessagePart, ServerEvents } from "@mcp-chat-host/protocol";
import { create } from "zustand";
import { placePart, type CardOrigins } from "./part-placement";

/** One chat's messages: ids in display order, and the messages by id. */
export interface ChatMessages {
  order: string[];
  byId: Record<string, ChatMessage>;
}

/** The open conversation's messages, by chat. */
export interface MessagesState {
  /** The conversation these messages belong to; events of any other one are ignored. */
  conversationId: string | null;
  chats: Record<string, ChatMessages>;
  /** Chats whose turn is running (from the snapshot and `turn:state`). */
  running: Record<string, boolean>;
  /**
   * Replaces everything with a snapshot's messages: after `session:hello` (also after a
   * reconnect, so a replayed snapshot never duplicates a message) and after opening a conversation.
   */
  replace(conversationId: string | null, messages: ChatMessage[], running: string[]): void;
  /**
   * Adds a stored message (`message:created`). When no conversation is open, the page adopts the
   * message's conversation: the server creates it with the first message.
   *
   * @returns true when the message belongs to the open conversation and was applied.
   */
  applyCreated(message: ChatMessage): boolean;
  /** Appends streamed text to a reply (`message:delta`); unknown messages are ignored. */
  applyDelta(event: ServerEvents["message:delta"]): void;
  /** Replaces a message with its final state (`message:updated`). */
  applyUpdated(message: ChatMessage): boolean;
  /**
   * Adds a part to a message while it streams (a tool call started, a card opened) where the
   * server stores it (`part-placement.ts`: a card right after the call that opened it), so the
   * page shows it where it happened; `message:updated` later replaces the parts with the stored
   * ones, in the same order.
   *
   * @param origins - the tool behind each known card, to link a card and its call.
   */
  addPart(chatId: string, messageId: string, part: MessagePart, origins?: CardOrigins): void;
  /** Marks a chat's turn as running or not. */
  setRunning(chatId: string, running: boolean): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

function insertOrdered(chat: ChatMessages, message: ChatMessage): ChatMessages {
  const byId = { ...chat.byId, [message.id]: message };
  const order = chat.order.includes(message.id) ? chat.order : [...chat.order, message.id];
  // Order by the server's sequence number: events of a reconnect may arrive in any order.
  const sortedOrder = [...order].sort((left, right) => {
    const a = byId[left];
    const b = byId[right];
    if (a === undefined || b === undefined) return 0;
    return a.seq - b.seq || a.createdAt - b.createdAt;
  });
  return { order: sortedOrder, byId };
}

/** The messages store. */
export const useMessagesStore = create<MessagesState>()((set, get) => {
  /** Puts a message in place unless it belongs to another conversation. */
  function put(message: ChatMessage): boolean {
    const state = get();
    if (state.conversationId !== null && state.conversationId !== message.conversationId) {
      return false;
    }
    const chat = state.chats[message.chatId] ?? { order: [], byId: {} };
    set({
      conversationId: message.conversationId,
      chats: { ...state.chats, [message.chatId]: insertOrdered(chat, message) },
    });
    return true;
  }

  function updateMessage(
    chatId: string,
    messageId: string,
    change: (message: ChatMessage) => ChatMessage,
  ): void {
    const state = get();
    const chat = state.chats[chatId];
    const message = chat?.byId[messageId];
    if (chat === undefined || message === undefined) return;
    const changed = change(message);
    if (changed === message) return;
    set({
      chats: {
        ...state.chats,
        [chatId]: { order: chat.order, byId: { ...chat.byId, [messageId]: changed } },
      },
    });
  }

  return {
    conversationId: null,
    chats: {},
    running: {},
    replace(conversationId, messages, running) {
      const chats: Record<string, ChatMessages> = {};
      for (const message of messages) {
        chats[message.chatId] = insertOrdered(
          chats[message.chatId] ?? { order: [], byId: {} },
          message,
        );
      }
      set({
        conversationId,
        chats,
        running: Object.fromEntries(running.map((chatId) => [chatId, true])),
      });
    },
    applyCreated(message) {
      return put(message);
    },
    applyDelta(event) {
      if (get().conversationId !== event.conversationId) return;
      updateMessage(event.chatId, event.messageId, (message) => {
        const parts = [...message.parts];
        const last = parts[parts.length - 1];
        if (last?.type === "text")
          parts[parts.length - 1] = { ...last, text: last.text + event.delta };
        else parts.push({ type: "text", text: event.delta });
        return { ...message, parts };
      });
    },
    applyUpdated(message) {
      return put(message);
    },
    addPart(chatId, messageId, part, origins) {
      updateMessage(chatId, messageId, (message) => {
        const parts = placePart(message.parts, part, origins);
        return parts === message.parts ? message : { ...message, parts };
      });
    },
    setRunning(chatId, running) {
      set((state) => ({ running: { ...state.running, [chatId]: running } }));
    },
    reset() {
      set({ conversationId: null, chats: {}, running: {} });
    },
  };
});

/** The text of a message: its text parts joined. */
export function messageText(message: ChatMessage): string {
  return message.parts
    .filter((part): part is Extract<MessagePart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("");
}
