import type { ChatMessage, ServerEvents } from "@mcp-chat-host/protocol";

/** One chat's messages: ids in display order, and the messages by id. */
export interface ChatMessages {
  order: string[];
  byId: Record<string, ChatMessage>;
}

/** The open conversation's messages, by chat (its id is `currentConversationId`). */
export interface MessagesSlice {
  messagesByChat: Record<string, ChatMessages>;
  /** Chats whose turn is running (from the snapshot and `turn:state`). */
  runningChats: Record<string, boolean>;
  /** Appends streamed text to a reply (`message:delta`); unknown messages are ignored. */
  applyDelta(event: ServerEvents["message:delta"]): void;
  /** Marks a chat's turn as running or not (`turn:state`). */
  setRunning(chatId: string, running: boolean): void;
}
