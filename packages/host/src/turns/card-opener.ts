// What a turn needs of the session's cards: a tool with a view opens a card before its call
// runs, and the call's outcome reaches the card. Defined here, by the turns that use it, and
// implemented by the card service.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { LiveCard } from "../session/card-registry";
import type { SourceTool } from "../sources/source";

/** The card a model's tool call opens. */
export interface OpenCardInput {
  chatKey: string;
  conversationId: string;
  /** The reply whose tool call opens the card. */
  messageId: string;
  source: string;
  tool: SourceTool;
  arguments: Record<string, unknown>;
  /** The card opens while the model still writes the arguments (they follow as partials). */
  inputStreaming?: boolean;
  /** The model's tool call that opens the card (its tool part holds the card). */
  toolCallId?: string;
}

/** The card transitions a turn's tool calls cause. */
export interface CardOpener {
  /**
   * Creates and commits the card of a tool call (the turn announces it, as its part's card).
   *
   * @throws store errors (the card is then not live).
   */
  openForToolCall(input: OpenCardInput): Promise<LiveCard>;
  /** Passes the arguments written so far to a streaming card. */
  inputPartial(card: LiveCard, args: Record<string, unknown>): void;
  /** A streaming card's arguments are final. */
  finishInput(card: LiveCard, args: Record<string, unknown>): Promise<void>;
  /**
   * The card's opening call starts now.
   *
   * @returns the signal that aborts the call when the card is closed (at once if it already is).
   */
  beginOpeningCall(card: LiveCard): AbortSignal;
  /** Records the opening call's result and passes it to the page. */
  complete(card: LiveCard, result: CallToolResult): Promise<void>;
  /** Records why the opening call has no result. */
  cancel(card: LiveCard, reason: string): Promise<void>;
  /**
   * Takes back a card whose call was refused before it ran because its arguments could not be
   * read: it stops being live, is saved closed, and the browser drops it.
   */
  withdraw(card: LiveCard, reason: string): Promise<void>;
}
