import type { CardDescriptor } from "@mcp-chat-host/protocol";

/**
 * A card as the conversation knows it: the one home of what the server says about it. Its
 * descriptor says what the card is (never changes once opened); the fields beside it say what
 * happened to it since, and are the ones to read: `descriptor.arguments`, `descriptor.result` and
 * `descriptor.cancelled` stay as the card was opened. What the live view adds (status, display
 * mode, size, log, when it last reported) is its `cardViews` entry; the card's controller follows
 * this entry to tell its view (`cards/controller/card-facts.ts`).
 */
export interface CardEntry {
  descriptor: CardDescriptor;
  /**
   * The opening call's arguments as last heard: a guess while the model still writes them
   * (`inputFinal` false), then the final ones.
   */
  arguments: Record<string, unknown>;
  /** Whether {@link CardEntry.arguments} are final (the model finished writing them). */
  inputFinal: boolean;
  /**
   * The opening call's result (from the descriptor, or its tool part's `cardResult`), or null
   * while it runs.
   */
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

/**
 * The open conversation's cards and the session's panes (`kind: "pane"`), by instance id. Each
 * action changes one known card and ignores an unknown one; `cardOpened` (`types/host-actions.ts`)
 * adds a card. These names are what any reader of the server's stream calls, whatever carries
 * the facts (the chunks of the card's tool part, `socket/bind-server-events.ts`).
 */
export interface CardsSlice {
  cards: Record<string, CardEntry>;
  /**
   * The model wrote more of the opening call's arguments (`final` false: `tool-input-delta`), or
   * finished them (`final` true: `tool-input-available`). Once they are final, nothing changes them:
   * the view was sent the first final arguments, and the entry says what it was sent.
   */
  cardInputChanged(instanceId: string, args: Record<string, unknown>, final: boolean): void;
  /**
   * The opening call returned (`cardResult` of `tool-output-available`, or of `tool-output-error`
   * for a tool's own error result); a cancellation heard before is dropped.
   */
  cardResulted(instanceId: string, result: Record<string, unknown>): void;
  /** The opening call failed, was stopped or was refused (`tool-output-error`, `-denied`). */
  cardCancelled(instanceId: string, reason: string): void;
  /** The person closed the card (it was torn down): it leaves the page. */
  cardClosed(instanceId: string, reason: string): void;
  /** The server closed the card (`card:closed`). */
  cardClosedByServer(instanceId: string, reason: string): void;
}

/** How a card's controller reads and follows its entry in the `cards` slice (injectable for tests). */
export interface CardEntryAccess {
  /** The card's entry, if the page holds it. */
  get: (instanceId: string) => CardEntry | undefined;
  /**
   * Calls `listener` with the card's entry each time it is replaced (not for other cards).
   *
   * @returns a function that stops it.
   */
  watch: (instanceId: string, listener: (entry: CardEntry) => void) => () => void;
}
