import type {
  CardDescriptor,
  ChatMessage,
  ConversationPage,
  ConversationSnapshot,
  ServerEvents,
  SessionSnapshot,
} from "@mcp-chat-host/protocol";
import type { ToolPart } from "./messages";

/** The root actions. */
export interface HostActions {
  /**
   * Replaces the page's whole state with the server's snapshot (after `session:hello`, including
   * after every reconnect: nothing the page held before can be duplicated). Cards are replaced in
   * the same step, so a card that stays is never missing for a moment.
   */
  applySessionSnapshot(snapshot: SessionSnapshot): void;
  /**
   * Shows a conversation (or none): its messages and cards replace the open one's, and it becomes
   * the open one. The session's panes stay.
   */
  applyConversationSnapshot(snapshot: ConversationSnapshot | null): void;
  /**
   * A page of the open conversation's earlier messages (`conversation:messages`) arrived: its
   * messages go before the loaded ones, its cards join the known ones (a known card keeps its
   * state). Ignored unless the same conversation is open and its oldest loaded message is still
   * the one numbered `before` (a snapshot since replaced what the page was asked for).
   */
  earlierArrived(conversationId: string, before: number, page: ConversationPage): void;
  /**
   * A stored message (`message:created`, `message:updated`). A message older than the loaded
   * ones, while earlier ones are not loaded, is left for its page. When no conversation is open, the
   * page adopts the message's conversation: the server creates it with the first message.
   *
   * @returns true when the message belongs to the open conversation and was applied.
   */
  messageArrived(message: ChatMessage): boolean;
  /**
   * A chunk of a reply being written (`message:chunk`), applied to the open conversation's reply
   * (`reply-chunks.ts`): its parts, the card a tool part opened or lost, and the calls' clocks, in
   * one step. A text delta must already be placed by its offset (`socket/delta-order.ts`).
   *
   * @returns the tool part the chunk moved on, after the move, for the card facts it carries;
   *   null when it moved none (a text chunk, an unknown reply, a part already past that state).
   */
  replyChunkArrived(event: ServerEvents["message:chunk"]): ToolPart | null;
  /**
   * A card shown by hand or a pane was committed (`card:opened`): it joins the cards (a card of
   * another conversation is ignored). A known card keeps its state. Cards opened by a model tool
   * call come with their tool part instead (`data-card`).
   */
  cardOpened(card: CardDescriptor): void;
}
