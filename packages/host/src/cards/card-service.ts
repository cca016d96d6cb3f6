import type { CardDescriptor } from "@mcp-chat-host/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { cardChatKey } from "../session/card-chat-key";
import type { AppContentParams } from "../context/report-text";
import { assembleHookChain, isChecked } from "../gate/app-call-gate";
import { HostError } from "../host-error";
import type { SessionContext } from "../session/session-context";
import type { ShowCardOptions } from "../session/session";
import type { SourceSpec } from "../session/session-sources";
import type { Source, SourceTool } from "../sources/source";
import { isVisibleTo, toolDisplayTitle, toolHasView } from "../sources/tool-metadata";
import type { CardRecord, ConversationRecord } from "../store/host-store";
import type { CardOpener, OpenCardInput } from "../turns/card-opener";
import { capToolResult } from "../sources/capped-result";
import { cardDescriptorOf, cardRecordOf } from "./card-descriptor";
import { isCurrentPage, newInstanceId, newLiveCard, type LiveCard } from "../session/card-registry";
import { pageError, NOT_RUNNING } from "../page-calls/page-errors";
import { takePageRequest } from "../page-calls/take-page-request";
import type { ViewCache } from "./view-cache";

/** What the card service needs of the session's conversations. */
export interface CardConversations {
  /** The shown conversation, created (titled from `titleHint`) when there is none. */
  current(titleHint: string): Promise<ConversationRecord>;
}

const STALE_REPORT = "This page was replaced by a newer load of the app; its report is not used.";

/**
 * The life of a session's cards and panes: opened by a model tool call or by hand, their
 * opening call's arguments and outcome, their reports, and their close. Every change of a
 * `LiveCard` happens here, and a card of a conversation is saved before the browser hears of it.
 */
export class CardService implements CardOpener {
  readonly #panes = new Map<string, CardDescriptor>();
  readonly #teardownListeners: ((instanceId: string) => void)[] = [];

  constructor(
    private readonly context: SessionContext,
    private readonly conversations: CardConversations,
    private readonly views: ViewCache,
  ) {}

  /** A stored card record as the browser sees it (live arguments included). */
  descriptorOf(record: CardRecord): CardDescriptor {
    return cardDescriptorOf(record, this.context.cards.get(record.instanceId));
  }

  /** The session's open panes. */
  paneDescriptors(): CardDescriptor[] {
    return [...this.#panes.values()].filter((pane) => this.context.cards.get(pane.instanceId));
  }

  /** Registers a function called with the id of each card or pane torn down. */
  onTeardown(listener: (instanceId: string) => void): void {
    this.#teardownListeners.push(listener);
  }

  /**
   * Creates the card of a model tool call, before the call runs, and commits it. The turn then
   * sends it as its tool part's `data-card`, so the browser hears of it only once it is stored.
   * With `inputStreaming`, the card opens as soon as the model starts writing the arguments, and
   * follows them ({@link inputPartial}) until {@link finishInput}.
   *
   * @returns the live card.
   * @throws store errors (the card is then not live).
   */
  async openForToolCall(input: OpenCardInput): Promise<LiveCard> {
    const chat = this.context.chats.get(input.chatKey);
    const chain = assembleHookChain({ chat: chat?.host?.onAppCall ?? null, restored: false });
    const descriptor: CardDescriptor = {
      instanceId: newInstanceId(),
      conversationId: input.conversationId,
      chatId: input.chatKey,
      kind: "card",
      source: input.source,
      tool: input.tool.name,
      arguments: input.arguments,
      result: null,
      title: chat?.host?.title ?? toolDisplayTitle(input.tool),
      checked: isChecked(chain),
      messageId: input.messageId,
      createdAt: this.context.services.now(),
    };
    if (input.inputStreaming === true) descriptor.inputStreaming = true;
    if (input.toolCallId !== undefined) descriptor.toolCallId = input.toolCallId;
    // Warm the page cache: the browser will attach as soon as it hears of the card.
    void this.views.warm(() => this.context.sources.get(input.source), input.tool);
    await this.#save(descriptor);
    return this.context.cards.add(newLiveCard(descriptor, chain, false));
  }

  /**
   * The model wrote more of a streaming card's arguments: keeps the latest guess in memory (not
   * saved), so a tab that attaches now starts from it (the tabs already hear it as the part's
   * `tool-input-delta`). Ignored once the arguments are final.
   */
  inputPartial(card: LiveCard, args: Record<string, unknown>): void {
    if (card.descriptor.inputStreaming !== true || card.disposed) return;
    card.descriptor.arguments = args;
  }

  /**
   * A streaming card's arguments are final (its call runs now): saves them (the tabs heard them
   * as the part's `tool-input-available`). Does nothing for a card that did not stream.
   *
   * @throws store errors.
   */
  async finishInput(card: LiveCard, args: Record<string, unknown>): Promise<void> {
    if (card.descriptor.inputStreaming !== true) return;
    delete card.descriptor.inputStreaming;
    card.descriptor.arguments = args;
    await this.#save(card.descriptor);
  }

  /**
   * The card's opening call starts now: closing the card (or stopping its turn) aborts it. A
   * card closed by the person while the model was still writing is cut short at once.
   */
  beginOpeningCall(card: LiveCard): AbortSignal {
    const opening = new AbortController();
    card.opening = opening;
    if (card.disposed) opening.abort(new Error("The card was closed."));
    return opening.signal;
  }

  /**
   * Records the opening call's result (the page gets it from the part's `tool-output-available`,
   * or `tool-output-error` for an error result, as `cardResult`).
   */
  async complete(card: LiveCard, result: CallToolResult): Promise<void> {
    card.descriptor.result = result as unknown as Record<string, unknown>;
    card.opening = null;
    await this.#save(card.descriptor);
  }

  /**
   * Records why the opening call has no result (the page gets `tool-cancelled` from the part's
   * `tool-output-error` or `tool-output-denied`).
   */
  async cancel(card: LiveCard, reason: string): Promise<void> {
    // Arguments that never became final stay as far as they got; the page hears no more of them.
    delete card.descriptor.inputStreaming;
    card.descriptor.cancelled = reason;
    card.opening = null;
    await this.#save(card.descriptor).catch((error: unknown) =>
      this.context.logger.warn({ err: error }, "could not save a cancelled card"),
    );
  }

  /**
   * Takes back a card opened while its call's arguments streamed, when the call was refused
   * for arguments that could not be read: the card is no longer live (its page is told nothing
   * more) and it is saved closed so a reopened conversation does not show it. The tabs drop it
   * on the part's `data-card-withdrawn`. `reason` is for the log.
   */
  async withdraw(card: LiveCard, reason: string): Promise<void> {
    const { instanceId, conversationId } = card.descriptor;
    delete card.descriptor.inputStreaming;
    card.opening = null;
    this.context.cards.dispose(instanceId);
    this.context.broker.cancelCard(instanceId);
    if (conversationId !== null) {
      await this.context.services.store
        .closeCard(conversationId, instanceId)
        .catch((error: unknown) =>
          this.context.logger.warn({ err: error }, "could not save a withdrawn card"),
        );
    }
    this.context.logger.debug({ instanceId, reason }, "a card was withdrawn");
  }

  /**
   * Shows a card or pane by hand: the tool is called first, so the saved card carries its result
   * and a restored one never calls it again. A card belongs to the session's only chat (none
   * when there are several); a pane to no chat.
   */
  async showByHand(
    spec: SourceSpec,
    options: ShowCardOptions & { kind: "card" | "pane" },
  ): Promise<string> {
    const context = this.context;
    const key = context.sources.register(spec);
    const own = options.onAppCall ?? null;
    if (own !== null && typeof own !== "function") {
      throw new HostError("bad_request", "`onAppCall` must be a function or `null`.");
    }
    if (own) context.hooks.add(key, own);
    const source = await context.sources.get(key);
    const tool = pickTool(source, await source.tools(), options.tool);
    const args = options.arguments ?? {};
    const result = capToolResult(
      await source.callTool(tool.name, args),
      context.services.toolResultLimit,
    );
    const owner = options.kind === "card" ? cardChatKey(null, [...context.chats.keys()]) : null;
    const chatHook = owner === null ? null : (context.chats.get(owner)?.host?.onAppCall ?? null);
    const chain = assembleHookChain({ own, chat: chatHook, restored: false });
    const conversation =
      options.kind === "card"
        ? await this.conversations.current(options.title ?? toolDisplayTitle(tool))
        : null;
    const descriptor: CardDescriptor = {
      instanceId: options.kind === "pane" ? newInstanceId(key) : newInstanceId(),
      conversationId: conversation?.id ?? null,
      chatId: null,
      kind: options.kind,
      source: key,
      tool: tool.name,
      arguments: args,
      result: result as unknown as Record<string, unknown>,
      title: options.title ?? toolDisplayTitle(tool),
      checked: isChecked(chain),
      createdAt: context.services.now(),
    };
    await this.#save(descriptor);
    context.cards.add(newLiveCard(descriptor, chain, false));
    if (options.kind === "pane") this.#panes.set(descriptor.instanceId, descriptor);
    context.emit("card:opened", { card: descriptor });
    return descriptor.instanceId;
  }

  /**
   * A page's `ui/update-model-context`: replaces the card's report (never stored).
   *
   * @param generation - the generation the page attached with; absent (an older browser) counts
   *   as the newest.
   * @throws {HostError} `not_found` for a card not running, `conflict` for an earlier load's page.
   */
  updateContext(
    instanceId: string,
    params: AppContentParams,
    generation?: number,
  ): { reportedAt: number } {
    const card = this.context.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    const refusal = takePageRequest(this.context, card, "context");
    if (refusal !== undefined) throw refusal;
    if (!isCurrentPage(card, generation)) {
      throw pageError(STALE_REPORT, "invalidRequest", "conflict");
    }
    card.report = params;
    card.reportedAt = this.context.services.now();
    return { reportedAt: card.reportedAt };
  }

  /**
   * A line of a card's own log (`notifications/message`), kept in the server's log at debug
   * level, within the card's, its source's and its session's budgets of log lines.
   *
   * @throws {HostError} `not_found` for a card not running here; `rate_limited` past a budget.
   */
  log(
    instanceId: string,
    entry: { level: string; logger?: string | undefined; data?: unknown },
  ): void {
    const card = this.context.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    const refusal = takePageRequest(this.context, card, "logs");
    if (refusal !== undefined) throw refusal;
    this.context.logger.debug(
      { card: instanceId, level: entry.level, logger: entry.logger, data: entry.data },
      "card log",
    );
  }

  /** A page was torn down (closed by the person, conversation switched, unmounted). */
  async teardown(instanceId: string, reason: string): Promise<void> {
    const context = this.context;
    const card = context.cards.dispose(instanceId);
    context.broker.cancelCard(instanceId);
    this.#panes.delete(instanceId);
    for (const listener of this.#teardownListeners) listener(instanceId);
    if (card && reason === "closed" && card.descriptor.conversationId !== null) {
      await context.services.store.closeCard(card.descriptor.conversationId, instanceId);
    }
  }

  /** Closes a conversation's live cards (it is no longer shown); their waiting approvals are refused. */
  closeConversation(conversationId: string): void {
    for (const instanceId of this.context.cards.disposeConversation(conversationId)) {
      this.context.broker.cancelCard(instanceId);
    }
  }

  /** Saves a card of a conversation (a pane, or a card of none, is not saved). */
  async #save(descriptor: CardDescriptor): Promise<void> {
    const { conversationId } = descriptor;
    if (conversationId === null) return;
    await this.context.services.store.saveCard(cardRecordOf({ ...descriptor, conversationId }));
  }
}

/**
 * The tool a card shown by hand opens with: the one named, else (for an in-process source) its
 * first model-visible tool with a view, else its first model-visible tool.
 */
function pickTool(source: Source, tools: SourceTool[], name: string | undefined): SourceTool {
  if (name !== undefined) {
    const named = tools.find((tool) => tool.name === name);
    if (!named) throw new HostError("bad_request", `${source.key} has no tool named "${name}".`);
    return named;
  }
  if (source.kind === "connection")
    throw new HostError("bad_request", "Name the `tool` that opens the app.");
  const visible = tools.filter((tool) => isVisibleTo(tool, "model"));
  const chosen = visible.find((tool) => toolHasView(tool)) ?? visible[0];
  if (!chosen)
    throw new HostError("bad_request", `${source.key} has no tools for the model to call.`);
  return chosen;
}
