// The events the server sends: their names, payloads and socket.io's typing of them.
import type { ApprovalRequest } from "./approval-records";
import type { CardDescriptor } from "./card-records";
import type { ChatTool, ConversationSummary } from "./conversation-records";
import type { ChatMessage } from "./message-records";
import type { ReplyChunk } from "./reply-chunks";

/** Payloads of every event the server sends, by event name. */
export interface ServerEvents {
  /** A message was stored (the person's, an app's submitted message, or the start of a reply). */
  "message:created": { message: ChatMessage };
  /**
   * More text of a reply being written. `offset` is how many characters of text (all its text
   * parts together) the reply had before this delta: a tab that already has more skips what it
   * has, and one that has less missed some and asks for a fresh snapshot.
   */
  "message:delta": {
    conversationId: string;
    chatId: string;
    messageId: string;
    delta: string;
    offset?: number;
  };
  /**
   * One step of a reply being written, in the order the model wrote it (`reply-chunks.ts`): a
   * tab applies each to the reply `messageId` as it comes.
   */
  "message:chunk": {
    conversationId: string;
    chatId: string;
    messageId: string;
    chunk: ReplyChunk;
  };
  /** A message changed (a reply finished, was stopped, or failed); carries the whole message. */
  "message:updated": { message: ChatMessage };
  /** A model tool call started. */
  "tool:started": {
    conversationId: string;
    chatId: string;
    messageId: string;
    toolCallId: string;
    /** The tool's own name on its source. */
    name: string;
    arguments: unknown;
    startedAt: number;
    /** The source the tool belongs to. */
    source?: string;
    /** The name the model was given, when it differs from `name`. */
    modelName?: string;
  };
  /** A running tool reported progress. */
  "tool:progress": {
    chatId: string;
    toolCallId: string;
    progress: number;
    total?: number;
    message?: string;
  };
  /** A model tool call ended. */
  "tool:finished": {
    chatId: string;
    toolCallId: string;
    name: string;
    isError: boolean;
    value: unknown;
    durationMs: number;
  };
  /** A tool call was refused before it ran (permissions, `onToolRequest`, budget). */
  "tool:refused": { chatId: string; toolCallId: string; name: string; reason: string };
  /** A card was committed to the store; the browser mounts it. */
  "card:opened": { card: CardDescriptor };
  /**
   * The model is still writing a card's opening arguments (the card was opened with
   * `inputStreaming: true`): the best-effort parse of what it wrote so far, for the page's
   * `tool-input-partial`. Each one replaces the previous; none follows `card:input`.
   */
  "card:input-partial": { instanceId: string; arguments: Record<string, unknown> };
  /**
   * A streaming card's opening arguments are final and its call runs now; the page gets
   * `tool-input` with them (once). Sent only for cards opened with `inputStreaming: true`.
   */
  "card:input": { instanceId: string; arguments: Record<string, unknown> };
  /** A card's opening call returned; the page gets `tool-result`. */
  "card:result": { instanceId: string; result: Record<string, unknown> };
  /** A card's opening call failed or was stopped; the page gets `tool-cancelled`. */
  "card:cancelled": { instanceId: string; reason: string };
  /**
   * A card opened while the model wrote its call's arguments is withdrawn: the call was refused
   * before it ran because its arguments could not be read (not JSON, not an object). The page
   * drops the card (and its place in the reply); the call's row says why.
   */
  "card:withdrawn": { instanceId: string; reason: string };
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
  /** Something the person should know that belongs to no request. */
  notice: { level: "info" | "warning" | "error"; message: string };
}

/** Names of the events the server sends. */
export type ServerEventName = keyof ServerEvents;

/** socket.io's typing of the events the server sends. */
export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEvents[E]) => void;
};
