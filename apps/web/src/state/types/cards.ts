import type { CardDescriptor } from "@mcp-chat-host/protocol";

/**
 * A card as the conversation knows it: its descriptor and what happened to it since. The live
 * card's own state (display mode, size, log, when it last reported) is its `cardViews` entry.
 */
export interface CardEntry {
  descriptor: CardDescriptor;
  /** The opening call's result (from the descriptor, or `card:result`), or null while it runs. */
  result: Record<string, unknown> | null;
  /** Why the opening call has no result (failed or stopped), or null. */
  cancelled: string | null;
  /**
   * Why the card is closed and off the page (the person closed it, or it was saved closed), or
   * null while it is shown.
   */
  closed: string | null;
  /** Why the server closed the card (`card:closed`); the card stays, showing its fallback. */
  closedByServer: string | null;
}

/** The open conversation's cards and the session's panes (`kind: "pane"`), by instance id. */
export interface CardsSlice {
  cards: Record<string, CardEntry>;
  /** The opening call returned (`card:result`). */
  cardResulted(instanceId: string, result: Record<string, unknown>): void;
  /** The opening call failed or was stopped (`card:cancelled`). */
  cardCancelled(instanceId: string, reason: string): void;
  /** The person closed the card (it was torn down): it leaves the page. */
  cardClosed(instanceId: string, reason: string): void;
  /** The server closed the card (`card:closed`). */
  cardClosedByServer(instanceId: string, reason: string): void;
}
