import type { ChatToolLists } from "../chat/chat-tools";
import type { TurnEvent } from "../model/turn-events";
import type { LiveCard } from "../session/card-registry";
import type { SessionContext } from "../session/session-context";
import { toolHasView } from "../sources/tool-metadata";
import type {
  JsonValue,
  MessageChanges,
  MessageRecord,
  MessagePart as StoredPart,
} from "../store/host-store";
import type { CardOpener } from "./card-opener";
import { MessageWrites } from "./message-writes";
import { partialArguments } from "./partial-json";
import { isSettled, ReplyParts } from "./reply-parts";

/** What a turn works with: the session's state, its chats' tool lists, and its cards. */
export interface TurnDeps {
  readonly context: SessionContext;
  readonly tools: ChatToolLists;
  readonly cards: CardOpener;
}

/** Why a call the person stopped has no result (the card and the model are told the same). */
export const STOPPED_REASON = "The person stopped the reply.";

/** The words in front of a refusal's reason on the refused call's card. */
const REFUSED_PREFIX = "Tool call rejected.";

/** How often a streaming reply's text is saved, at most, in ms. */
const TEXT_SAVE_INTERVAL_MS = 1_000;

/** The card of one tool call: being stored, then stored. */
interface CallCard {
  /** Resolves with the card once stored and sent as the part's `data-card`. */
  readonly opening: Promise<LiveCard>;
  /** The card, once stored. */
  card: LiveCard | null;
}

/**
 * One reply being written in one chat: its parts as they stream ({@link ReplyParts}, which sends
 * each change to the tabs as a `message:chunk`), the cards its tool calls open, and what each
 * model event changes ({@link Turn.apply}). The parts are saved now and then, so a crash keeps
 * most of what was said.
 */
export class Turn {
  /** Stops the reply (the person, a switch of conversation, the session's end). */
  readonly abort = new AbortController();
  /** The conversation the turn writes to, once known. */
  conversationId = "";
  /** The stored reply, once its start is saved. */
  reply: MessageRecord | null = null;
  /** Resolves when the reply has been stored (or could not be). */
  done: Promise<void> = Promise.resolve();
  /** The reply's parts, and the chunks that tell the tabs of each change. */
  readonly #parts = new ReplyParts((chunk) => {
    const reply = this.reply;
    if (reply === null) return;
    this.deps.context.emit("message:chunk", {
      conversationId: this.conversationId,
      chatId: this.chatKey,
      messageId: reply.id,
      chunk,
    });
  });
  /** The card of each tool call whose tool has a view, by call id. */
  readonly #cards = new Map<string, CallCard>();
  /** Calls refused for input that could not be read: their card is taken back. */
  readonly #withdrawn = new Set<string>();
  /** When each running tool call started (for its duration). */
  readonly #toolStarts = new Map<string, number>();
  /** When the reply's parts were last saved while streaming. */
  #savedAt = 0;
  /** The reply's writes to its stored message, in order (made once the reply is stored). */
  #writes: MessageWrites | null = null;

  constructor(
    /** The chat the turn answers in. */
    readonly chatKey: string,
    private readonly deps: TurnDeps,
  ) {}

  /** The reply's parts so far, in order (live: a tab that joins now starts from these). */
  get parts(): readonly StoredPart[] {
    return this.#parts.parts;
  }

  /** The parts as stored (a copy, so later events don't change what is being written). */
  storedParts(): StoredPart[] {
    return structuredClone(this.#parts.parts);
  }

  /**
   * The card of a tool call, once it is stored (before the call runs, so its page can show the
   * input and await the result).
   *
   * @returns the card, or null when the call's tool has no view.
   * @throws the store's error when the card could not be stored.
   */
  async cardOf(toolCallId: string): Promise<LiveCard | null> {
    const entry = this.#cards.get(toolCallId);
    return entry ? entry.opening : null;
  }

  /** Applies one model event to the reply: its parts (each change sent as a chunk) and cards. */
  apply(event: TurnEvent): void {
    if (this.reply === null) return;
    const { services } = this.deps.context;
    const parts = this.#parts;
    switch (event.type) {
      case "step-started":
        parts.newStep();
        break;
      case "text-delta":
        parts.addText(event.delta);
        // Not every delta is saved: each save rewrites the message.
        if (services.now() - this.#savedAt >= TEXT_SAVE_INTERVAL_MS) this.saveProgress();
        break;
      case "tool-input-start":
        // The part is born as the model starts writing the input (providers that stream it),
        // and a tool with a view opens its card now, so the page shows the input as it arrives.
        parts.startTool(event.toolCallId, this.callNames(event.name), services.now());
        this.#openCard(event.toolCallId, event.name, {}, true);
        break;
      case "tool-input-delta": {
        const input = partialArguments(event.partialJson);
        if (!parts.inputDelta(event.toolCallId, input)) break;
        const card = this.#cards.get(event.toolCallId)?.card;
        if (card) this.deps.cards.inputPartial(card, input);
        break;
      }
      case "tool-call":
        this.#toolStarts.set(event.toolCallId, services.now());
        parts.startTool(event.toolCallId, this.callNames(event.name), services.now());
        parts.inputAvailable(event.toolCallId, event.arguments);
        this.#openCard(event.toolCallId, event.name, event.arguments, false);
        break;
      case "tool-progress":
        parts.progress(event.toolCallId, {
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        });
        break;
      case "tool-result":
        this.#finish(event);
        // A crash keeps every finished tool call.
        this.saveProgress();
        break;
      case "tool-cancelled":
        parts.outputError(
          event.toolCallId,
          STOPPED_REASON,
          undefined,
          this.#toolDuration(event.toolCallId),
        );
        break;
      case "tool-output-denied":
        this.#refuse(event);
        break;
      default:
        break;
    }
  }

  /**
   * The reply ends: its last text part is complete, and each call that got no outcome (its input
   * was still streaming, or could not be read) fails with `reason`, its card too. Resolves once
   * every card being stored is stored, so the reply's end is saved after them.
   */
  async settleCalls(reason: string): Promise<void> {
    const open = new Set(this.#parts.settle(reason));
    await Promise.all(
      [...this.#cards.entries()].map(async ([toolCallId, entry]) => {
        if (entry.card) {
          if (open.has(toolCallId)) await this.deps.cards.cancel(entry.card, reason);
          return;
        }
        // A card still being stored is cancelled as it is stored (its part has its outcome).
        await entry.opening.catch(() => null);
      }),
    );
  }

  /** The tool's own name for a model name of the chat (unknown names are kept as they are). */
  realName(modelName: string): string {
    return this.deps.tools.byModelName(this.chatKey, modelName)?.tool.name ?? modelName;
  }

  /** The stored names of a call: its tool's own name, its source, and the model's name if it differs. */
  callNames(modelName: string): { name: string; source?: string; modelName?: string } {
    const listed = this.deps.tools.byModelName(this.chatKey, modelName);
    if (listed === undefined) return { name: modelName };
    return {
      name: listed.tool.name,
      source: listed.source,
      ...(listed.modelName === listed.tool.name ? {} : { modelName: listed.modelName }),
    };
  }

  /**
   * Saves the reply so far, after the reply's earlier writes (not awaited; a failure is logged).
   * Nothing is saved once the reply's end is queued.
   */
  saveProgress(): void {
    const { context } = this.deps;
    const writes = this.#messageWrites();
    if (writes === null) return;
    this.#savedAt = context.services.now();
    writes.progress(this.storedParts(), (error: unknown) =>
      context.logger.warn({ err: error }, "could not save a reply's progress"),
    );
  }

  /**
   * Saves the reply's end once every earlier save of it has finished, so no progress save can
   * land after it; later progress saves are dropped.
   *
   * @returns the stored reply.
   * @throws {Error} when the reply was never stored, or the store's error when the write fails.
   */
  saveEnd(changes: MessageChanges): Promise<MessageRecord> {
    const writes = this.#messageWrites();
    if (writes === null) return Promise.reject(new Error("The reply was never stored."));
    return writes.end(changes);
  }

  /** The queue of the stored reply's writes, or null before the reply is stored. */
  #messageWrites(): MessageWrites | null {
    const reply = this.reply;
    if (reply === null) return null;
    if (this.#writes?.messageId !== reply.id) {
      this.#writes = new MessageWrites(
        this.deps.context.services.store,
        this.conversationId,
        reply.id,
      );
    }
    return this.#writes;
  }

  /** Opens the card of a call whose tool has a view (once per call). */
  #openCard(
    toolCallId: string,
    modelName: string,
    args: Record<string, unknown>,
    inputStreaming: boolean,
  ): void {
    const reply = this.reply;
    if (reply === null || this.#cards.has(toolCallId)) return;
    const listed = this.deps.tools.byModelName(this.chatKey, modelName);
    if (!listed || !toolHasView(listed.tool)) return;
    const entry: { opening: Promise<LiveCard>; card: LiveCard | null } = {
      opening: this.deps.cards
        .openForToolCall({
          chatKey: this.chatKey,
          conversationId: this.conversationId,
          messageId: reply.id,
          source: listed.source,
          tool: listed.tool,
          arguments: args,
          toolCallId,
          ...(inputStreaming ? { inputStreaming: true } : {}),
        })
        .then((card) => {
          entry.card = card;
          this.#cardStored(toolCallId, card);
          return card;
        }),
      card: null,
    };
    // The call that awaits the card fails with the store's error; the log says so too.
    entry.opening.catch((error: unknown) =>
      this.deps.context.logger.warn({ err: error }, "could not open a tool call's card"),
    );
    this.#cards.set(toolCallId, entry);
  }

  /**
   * A call's card is stored: it becomes the part's card (`data-card`), as far along as the part
   * is by now. A call refused or ended meanwhile gets it withdrawn or cancelled instead.
   */
  #cardStored(toolCallId: string, card: LiveCard): void {
    const part = this.#parts.tool(toolCallId);
    if (!part) return;
    if (this.#withdrawn.has(toolCallId)) {
      void this.deps.cards.withdraw(card, `${REFUSED_PREFIX} ${part.errorText ?? ""}`.trim());
      return;
    }
    if (part.state === "input-streaming") {
      this.deps.cards.inputPartial(card, part.input as Record<string, unknown>);
    }
    if (isSettled(part) && part.state !== "output-available") {
      const reason =
        part.state === "output-denied"
          ? `${REFUSED_PREFIX} ${part.errorText ?? ""}`.trim()
          : (part.errorText ?? STOPPED_REASON);
      void this.deps.cards.cancel(card, reason);
    }
    const descriptor = structuredClone(card.descriptor);
    if (part.state !== "input-streaming") {
      // The input is already final: the card carries it, and its page gets it at once.
      delete descriptor.inputStreaming;
      descriptor.arguments = part.input as Record<string, unknown>;
    }
    this.#parts.card(toolCallId, descriptor);
  }

  /** A call returned (or its tool answered with an error): its output, and its card's result. */
  #finish(event: Extract<TurnEvent, { type: "tool-result" }>): void {
    const { toolCallId, value, isError, raw } = event;
    const hasCard = this.#cards.get(toolCallId)?.card != null;
    const cardResult =
      hasCard && raw !== undefined ? (raw as unknown as Record<string, unknown>) : undefined;
    const durationMs = this.#toolDuration(toolCallId);
    if (isError) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      this.#parts.outputError(toolCallId, text, cardResult, durationMs);
    } else {
      this.#parts.outputAvailable(toolCallId, value as JsonValue, cardResult, durationMs);
    }
  }

  /**
   * A call refused before it ran: its part (born now if the input did not stream) is denied. A
   * card opened while the input streamed goes away when the input could not be read (the call
   * never was one); a call a check refused keeps its card, which shows the refusal.
   */
  #refuse(event: Extract<TurnEvent, { type: "tool-output-denied" }>): void {
    const { toolCallId, reason } = event;
    const parts = this.#parts;
    parts.startTool(toolCallId, this.callNames(event.name), this.deps.context.services.now());
    const card = this.#cards.get(toolCallId)?.card ?? null;
    const onCard = `${REFUSED_PREFIX} ${reason}`;
    if (event.check === "arguments") {
      this.#withdrawn.add(toolCallId);
      if (card) {
        parts.withdrawCard(toolCallId, onCard);
        void this.deps.cards.withdraw(card, onCard);
      }
    } else if (card) {
      void this.deps.cards.cancel(card, onCard);
    }
    parts.outputDenied(toolCallId, reason);
  }

  /** How long a call ran, in ms (0 when its start is unknown). */
  #toolDuration(toolCallId: string): number {
    const started = this.#toolStarts.get(toolCallId);
    this.#toolStarts.delete(toolCallId);
    return started === undefined ? 0 : Math.max(0, this.deps.context.services.now() - started);
  }
}
