import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";

/** A reply's tool part: a model tool call, its state, and the card it opened, if any. */
export type ToolPart = Extract<MessagePart, { type: "tool" }>;

/** One chat's messages: ids in display order, and the messages by id. */
export interface ChatMessages {
  order: string[];
  byId: Record<string, ChatMessage>;
}

/**
 * The open conversation's messages not loaded yet: a snapshot carries only the latest page, the
 * list asks for earlier pages (`conversation:messages`) as the person scrolls up.
 */
export interface EarlierMessages {
  /** Whether the conversation has messages before the first one loaded. */
  more: boolean;
  /** Whether a page is being asked for. */
  loading: boolean;
  /** Why the last page could not be loaded, in a sentence for the person; null when it could. */
  error: string | null;
}

/** The open conversation's messages, by chat (its id is `currentConversationId`). */
export interface MessagesSlice {
  messagesByChat: Record<string, ChatMessages>;
  /** The open conversation's earlier messages, not loaded yet. */
  earlierMessages: EarlierMessages;
  /** Chats whose turn is running (from the snapshot and `turn:state`). */
  runningChats: Record<string, boolean>;
  /** Marks a chat's turn as running or not (`turn:state`). */
  setRunning(chatId: string, running: boolean): void;
  /** A page of earlier messages is being asked for. */
  earlierRequested(): void;
  /** The page asked for could not be loaded: `error` says why (the list offers to try again). */
  earlierFailed(error: string): void;
}
