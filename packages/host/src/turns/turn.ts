import type { MessagePart } from "@mcp-chat-host/protocol";
import type { ChatToolLists } from "../chat/chat-tools";
import type { TurnEvent } from "../model/turn-events";
import type { SessionContext } from "../session/session-context";
import { toolHasView } from "../sources/tool-metadata";
import type { MessageChanges, MessageRecord, MessagePart as StoredPart } from "../store/host-store";
import type { CardOpener } from "./card-opener";
import { MessageWrites } from "./message-writes";
import { StreamingCards } from "./streaming-cards";

/** What a turn works with: the session's state, its chats' tool lists, and its cards. */
export interface TurnDeps {
  readonly context: SessionContext;
  readonly tools: ChatToolLists;
  readonly cards: CardOpener;
}

/** Why a call the person stopped has no result (the card and the model are told the same). */
export const STOPPED_REASON = "The person stopped the reply.";

/** How often a streaming reply's text is saved, at most, in ms. */
const TEXT_SAVE_INTERVAL_MS = 1_000;

/**
 * One reply being written in one chat: its parts as they stream, the cards its tool calls opened
 * early, and what each model event changes ({@link Turn.apply}). Events go to the tab as they
 * come; the parts are saved now and then, so a crash keeps most of what was said.
 */
export class Turn {
  /** Stops the reply (the person, a switch of conversation, the session's end). */
  readonly abort = new AbortController();
  /** The reply's parts so far, in order. */
  readonly parts: MessagePart[] = [];
  /** Cards opened while the model writes their call's arguments. */
  readonly streamingCards: StreamingCards;
  /** The conversation the turn writes to, once known. */
  conversationId = "";
  /** The stored reply, once its start is saved. */
  reply: MessageRecord | null = null;
  /** Resolves when the reply has been stored (or could not be). */
  done: Promise<void> = Promise.resolve();
  /** When each running tool call started (for its duration). */
  readonly #toolStarts = new Map<string, number>();
  /** When the reply's parts were last saved while streaming. */
  #savedAt = 0;
  /** A new model step began: the next text starts a new paragraph. */
  #newParagraph = false;
  /** The reply's writes to its stored message, in order (made once the reply is stored). */
  #writes: MessageWrites | null = null;

  constructor(
    /** The chat the turn answers in. */
    readonly chatKey: string,
    private readonly deps: TurnDeps,
  ) {
    this.streamingCards = new StreamingCards(
      deps.cards,
      (error) =>
        deps.context.logger.warn({ err: error }, "could not open a card while its input streamed"),
      (card, toolCallId) => this.addCard(card.descriptor.instanceId, toolCallId),
    );
  }

  /** Records a card opened by a call: right after the call (the browser agrees). */
  addCard(instanceId: string, toolCallId: string): void {
    this.parts.push({ type: "card", instanceId, toolCallId });
  }

  /** The parts as stored (a copy, so later events don't change what is being written). */
  storedParts(): StoredPart[] {
    return structuredClone(this.parts) as StoredPart[];
  }

  /** Applies one model event to the reply: its parts, the tab, and the cards opened early. */
  apply(event: TurnEvent): void {
    const reply = this.reply;
    if (reply === null) return;
    const { emit, services } = this.deps.context;
    const where = {
      chatId: this.chatKey,
      conversationId: this.conversationId,
      messageId: reply.id,
    };
    switch (event.type) {
      case "step-started":
        this.#newParagraph = true;
        break;
      case "text-delta": {
        const delta = this.#addText(event.delta);
        // Not every delta is saved: each save rewrites the message.
        if (services.now() - this.#savedAt >= TEXT_SAVE_INTERVAL_MS) this.saveProgress();
        emit("message:delta", { ...where, delta });
        break;
      }
      case "tool-input-started": {
        // A tool with a view opens its card as soon as the model starts writing the arguments
        // (providers that stream them), so the page can show them as they arrive.
        const listed = this.deps.tools.byModelName(this.chatKey, event.name);
        if (!listed || !toolHasView(listed.tool)) break;
        this.streamingCards.open(event.toolCallId, {
          chatKey: this.chatKey,
          conversationId: this.conversationId,
          messageId: reply.id,
          source: listed.source,
          tool: listed.tool,
        });
        break;
      }
      case "tool-input-delta":
        this.streamingCards.partial(event.toolCallId, event.partialJson);
        break;
      case "tool-started": {
        this.#toolStarts.set(event.toolCallId, services.now());
        const names = this.callNames(event.name);
        this.parts.push({
          type: "tool-call",
          toolCallId: event.toolCallId,
          ...names,
          arguments: event.arguments,
        });
        emit("tool:started", {
          ...where,
          toolCallId: event.toolCallId,
          ...names,
          arguments: event.arguments,
          startedAt: services.now(),
        });
        break;
      }
      case "tool-progress":
        emit("tool:progress", {
          chatId: this.chatKey,
          toolCallId: event.toolCallId,
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        });
        break;
      case "tool-finished": {
        const { name, modelName } = this.callNames(event.name);
        this.parts.push({
          type: "tool-result",
          toolCallId: event.toolCallId,
          name,
          ...(modelName === undefined ? {} : { modelName }),
          value: event.value,
          isError: event.isError,
        });
        emit("tool:finished", {
          chatId: this.chatKey,
          toolCallId: event.toolCallId,
          name,
          isError: event.isError,
          value: event.value,
          durationMs: this.#toolDuration(event.toolCallId),
        });
        // A crash keeps every finished tool call.
        this.saveProgress();
        break;
      }
      case "tool-cancelled":
        emit("tool:finished", {
          chatId: this.chatKey,
          toolCallId: event.toolCallId,
          name: this.realName(event.name),
          isError: true,
          value: STOPPED_REASON,
          durationMs: this.#toolDuration(event.toolCallId),
        });
        break;
      case "tool-refused":
        this.#refuse(event, where);
        break;
      default:
        break;
    }
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

  /**
   * Adds text to the reply. A later step's text is a paragraph of its own: the blank line
   * travels in the delta, so the browser's text and the stored text stay the same.
   *
   * @returns the delta as sent and stored.
   */
  #addText(text: string): string {
    const last = this.parts.at(-1);
    const hasText = this.parts.some((part) => part.type === "text" && part.text !== "");
    const delta = this.#newParagraph && hasText ? `\n\n${text}` : text;
    this.#newParagraph = false;
    if (last?.type === "text") last.text += delta;
    else this.parts.push({ type: "text", text: delta });
    return delta;
  }

  /** A call refused before it ran: the browser gets a row for it (it had no `tool:started`). */
  #refuse(
    event: Extract<TurnEvent, { type: "tool-refused" }>,
    where: { chatId: string; conversationId: string; messageId: string },
  ): void {
    const { toolCallId, name: modelName, reason } = event;
    const { emit, services } = this.deps.context;
    const names = this.callNames(modelName);
    this.parts.push(
      { type: "tool-call", toolCallId, ...names, arguments: {} },
      {
        type: "tool-result",
        toolCallId,
        name: names.name,
        ...(names.modelName === undefined ? {} : { modelName: names.modelName }),
        value: `Tool call rejected. ${reason}`,
        isError: true,
      },
    );
    emit("tool:started", {
      ...where,
      toolCallId,
      ...names,
      arguments: {},
      startedAt: services.now(),
    });
    emit("tool:refused", { chatId: this.chatKey, toolCallId, name: names.name, reason });
    // A card opened while the arguments streamed: when they could not be read (broken JSON), the
    // call never was one, and the card goes away; a call a check refused keeps its card, which
    // shows the refusal instead of a result.
    if (event.check === "arguments") {
      void this.streamingCards.withdraw(toolCallId, `Tool call rejected. ${reason}`);
    } else {
      void this.streamingCards.cancel(toolCallId, `Tool call rejected. ${reason}`);
    }
  }

  /** How long a call ran, in ms (0 when its start is unknown). */
  #toolDuration(toolCallId: string): number {
    const started = this.#toolStarts.get(toolCallId);
    this.#toolStarts.delete(toolCallId);
    return started === undefined ? 0 : Math.max(0, this.deps.context.services.now() - started);
  }
}
