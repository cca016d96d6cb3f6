import type {
  CardDescriptor,
  ChatMessage,
  ConversationPage,
  ConversationSnapshot,
  ServerEvents,
  SessionSnapshot,
} from "@mcp-chat-host/protocol";

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
  /** A model tool call started (`tool:started`): its row runs, its part joins the message. */
  toolStarted(event: ServerEvents["tool:started"]): void;
  /**
   * A call was refused (`tool:refused`). A call the page never saw start is shown under the
   * chat's last assistant message.
   */
  toolRefused(event: ServerEvents["tool:refused"]): void;
  /**
   * The server committed a card (`card:opened`): a pane joins the panes; a card of the open
   * conversation joins its message where the server stores it. A known card keeps its state.
   */
  cardOpened(card: CardDescriptor): void;
  /**
   * The server withdrew a card whose call's arguments could not be read (`card:withdrawn`): it
   * leaves its reply and the page (its view is torn down as its slot goes).
   */
  cardWithdrawn(instanceId: string): void;
}
