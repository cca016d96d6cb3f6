// Cards opened while the model is still writing their call's arguments (providers that stream
// them): one turn's worth, by tool call id. The card opens at `tool-input-started`, each new
// best-effort reading of the arguments goes to the page in order, and the call takes the card
// over when it runs (or the card is cancelled when the call never runs, or withdrawn when its
// arguments could not be read).
import type { LiveCard } from "../session/card-registry";
import { partialArguments } from "./partial-json";
import type { CardOpener, OpenCardInput } from "./card-opener";

/** What opening a streaming card needs besides its arguments. */
export type StreamingCardTarget = Omit<
  OpenCardInput,
  "arguments" | "inputStreaming" | "toolCallId"
>;

interface StreamingCard {
  /** Resolves with the card once committed and announced, or null when it could not be opened. */
  opening: Promise<LiveCard | null>;
  /** The partial arguments passed on so far, in order (each after the card was announced). */
  relay: Promise<void>;
  /** The JSON of the last partial arguments passed on, so an unchanged reading is not resent. */
  lastSent: string;
}

/** The streaming cards of one turn. */
export class StreamingCards {
  readonly #cards = new Map<string, StreamingCard>();

  /**
   * @param cards - the session's card service.
   * @param warn - logs a card that could not be opened early (its call then opens it as usual).
   * @param onTaken - called with each card (and its call's id) when its call takes it over or it
   *   is cancelled.
   */
  constructor(
    private readonly cards: Pick<
      CardOpener,
      "openForToolCall" | "inputPartial" | "cancel" | "withdraw"
    >,
    private readonly warn: (error: unknown) => void,
    private readonly onTaken: (card: LiveCard, toolCallId: string) => void,
  ) {}

  /** Opens the card of a tool call whose arguments started streaming (once per call). */
  open(toolCallId: string, target: StreamingCardTarget): void {
    if (this.#cards.has(toolCallId)) return;
    const opening = this.cards
      .openForToolCall({ ...target, toolCallId, arguments: {}, inputStreaming: true })
      .catch((error: unknown) => {
        this.warn(error);
        return null;
      });
    this.#cards.set(toolCallId, { opening, relay: opening.then(() => undefined), lastSent: "{}" });
  }

  /** Passes the arguments written so far to the call's card, if it has one and they changed. */
  partial(toolCallId: string, partialJson: string): void {
    const streaming = this.#cards.get(toolCallId);
    if (!streaming) return;
    const args = partialArguments(partialJson);
    const json = JSON.stringify(args);
    if (json === streaming.lastSent) return;
    streaming.lastSent = json;
    streaming.relay = streaming.relay.then(async () => {
      const card = await streaming.opening;
      if (card) this.cards.inputPartial(card, args);
    });
  }

  /**
   * Takes the call's card over, once every partial was passed on.
   *
   * @returns the card, or null when the call had none (or it could not be opened).
   */
  async take(toolCallId: string): Promise<LiveCard | null> {
    const streaming = this.#cards.get(toolCallId);
    if (!streaming) return null;
    this.#cards.delete(toolCallId);
    await streaming.relay;
    const card = await streaming.opening;
    if (card) this.onTaken(card, toolCallId);
    return card;
  }

  /** Cancels the call's card (the call will not run); the page gets `tool-cancelled`. */
  async cancel(toolCallId: string, reason: string): Promise<void> {
    const card = await this.take(toolCallId);
    if (card) await this.cards.cancel(card, reason);
  }

  /**
   * Withdraws the call's card: the call was refused for arguments that could not be read, so it
   * never takes the card over and the reply keeps no place for it.
   */
  async withdraw(toolCallId: string, reason: string): Promise<void> {
    const streaming = this.#cards.get(toolCallId);
    if (!streaming) return;
    this.#cards.delete(toolCallId);
    await streaming.relay;
    const card = await streaming.opening;
    if (card) await this.cards.withdraw(card, reason);
  }

  /** Cancels every card no call took over (the turn ended). */
  async cancelAll(reason: string): Promise<void> {
    await Promise.all([...this.#cards.keys()].map((toolCallId) => this.cancel(toolCallId, reason)));
  }
}
