// The events the server sends: their names, payloads and socket.io's typing of them.
import type { ApprovalRequest } from "./approval-records";
import type { CardDescriptor } from "./card-records";
import type { ChatTool, ConversationSummary } from "./conversation-records";
import type { ChatMessage } from "./message-records";
import type { ReplyChunk } from "./reply-chunks";
import type { ElicitationRequest, ServerStatus, elicitationOutcomes } from "./server-records";

/** Payloads of every event the server sends, by event name. */
export interface ServerEvents {
  /** A message was stored (the person's, an app's submitted message, or the start of a reply). */
  "message:created": { message: ChatMessage };
  /**
   * One step of a reply being written, in the order the model wrote it (`reply-chunks.ts`): a
   * tab applies each to the reply `messageId` as it comes. Its text, its tool calls and the
   * cards they open all travel this way, between the reply's `message:created` and its
   * `message:updated`.
   */
  "message:chunk": {
    conversationId: string;
    chatId: string;
    messageId: string;
    chunk: ReplyChunk;
  };
  /** A message changed (a reply finished, was stopped, or failed); carries the whole message. */
  "message:updated": { message: ChatMessage };
  /**
   * A card shown by hand (a card or pane the program opened) was committed to the store; the
   * browser mounts it. A card a model tool call opens arrives in its reply, as `data-card`.
   */
  "card:opened": { card: CardDescriptor };
  /** A card was closed by the server (session end, source gone). */
  "card:closed": { instanceId: string; reason: string };
  /** An app asked to post a message and the chat composes: fill that chat's input box. */
  "composer:fill": { chatId: string; text: string; instanceId: string };
  /**
   * The tools a chat offers the model, as last listed (sent when the list changes, and after
   * hello). Tools whose model name differs from their own carry `renamed`.
   */
  "chat:tools": { chatId: string; tools: ChatTool[] };
  /** A turn started or ended in a chat. */
  "turn:state": { chatId: string; conversationId: string; running: boolean };
  /** The model context of a chat's last turn, for the inspector. */
  "context:built": {
    chatId: string;
    text: string | null;
    builtAt: number;
    injected: boolean;
  };
  /** The server asks the person about a card's tool call. */
  "approval:request": ApprovalRequest;
  /** A pending approval was answered or withdrawn (another tab, session end). */
  "approval:settled": { approvalId: string };
  /** The person's conversation list changed (another tab renamed, deleted, imported). */
  "conversations:changed": { conversations: ConversationSummary[] };
  /**
   * The server may have missed updates for this tab (its link to the other nodes was down): the
   * tab asks for a fresh snapshot (`session:hello`).
   */
  "session:stale": Record<string, never>;
  /** The person's MCP servers changed state (signed in, needs sign-in, failed, disconnected). */
  "servers:state": { servers: ServerStatus[] };
  /** A server asks the person something; the tab shows a dialog naming the server. */
  "elicitation:request": ElicitationRequest;
  /** A server's question was answered (perhaps in another tab), timed out or withdrawn. */
  "elicitation:settled": {
    elicitationId: string;
    outcome: (typeof elicitationOutcomes)[number];
  };
  /** Something the person should know that belongs to no request. */
  notice: { level: "info" | "warning" | "error"; message: string };
}

/** Names of the events the server sends. */
export type ServerEventName = keyof ServerEvents;

/** socket.io's typing of the events the server sends. */
export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEvents[E]) => void;
};
