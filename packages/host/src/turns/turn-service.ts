import type { ChatMessage, MessagePart, ServerEvents } from "@mcp-chat-host/protocol";
import type { ModelMessage } from "ai";
import { capToolResult } from "../cards/capped-result";
import { sourceFailureMessage } from "../cards/source-failure";
import type { Chat } from "../chat/chat";
import { withAppContext } from "../context/context-relay";
import { HostError } from "../host-error";
import type { HostTool } from "../model/host-tool";
import { runTurn } from "../model/model-runner";
import { toolOutcomeFromResult } from "../model/tool-outcome";
import type { TurnEvent } from "../model/turn-events";
import type { HostSession } from "../session/host-session";
import type { SourceTool } from "../sources/source";
import { toolDisplayTitle, toolHasView } from "../sources/tool-metadata";
import { isStoreError, toStoreError } from "../store/store-error";
import type {
  ConversationRecord,
  MessageFromApp,
  MessageRecord,
  MessagePart as StoredPart,
} from "../store/host-store";
import { ChatToolLists, type ListedTool } from "./chat-tools";
import { historyForTurn } from "./history";
import { StreamingCards } from "./streaming-cards";

interface RunningTurn {
  abort: AbortController;
  /** When each running tool call started (for its duration). */
  toolStarts: Map<string, number>;
  /** When the reply's parts were last saved while streaming. */
  savedAt: number;
  conversationId: string;
  reply: MessageRecord | null;
  parts: MessagePart[];
  done: Promise<void>;
  /** Cards opened while the model writes their call's arguments. */
  streamingCards: StreamingCards;
  /** A new model step began: the next text starts a new paragraph. */
  newParagraph: boolean;
}

/** The statuses of a reply that Retry may run again. */
const RETRYABLE_STATUSES: ReadonlySet<MessageRecord["status"]> = new Set([
  "error",
  "stopped",
  "interrupted",
]);

const STOPPED_REASON = "The person stopped the reply.";

/** Why a card whose arguments were streaming got no call (the model's arguments were not valid). */
const CALL_NOT_RUN_REASON = "The tool call did not run: the model's arguments could not be read.";

/** How often a streaming reply's text is saved, at most, in ms. */
const TEXT_SAVE_INTERVAL_MS = 1_000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The turns of one session's chats: a person's message is stored (and only then acknowledged),
 * the chat's app context is built, and the model runs with the chat's tools, its reply streamed
 * to the browser and stored as it goes. A tool with a view opens a card before it runs.
 */
export class TurnService {
  readonly #running = new Map<string, RunningTurn>();
  readonly #clientIds = new Map<string, string>();
  readonly #tools: ChatToolLists;

  constructor(private readonly session: HostSession) {
    this.#tools = new ChatToolLists({
      source: (key) => session.sources.get(key),
      warn: (details, message) => session.logger.warn(details, message),
      announce: (event) => session.emit("chat:tools", event),
    });
  }

  /**
   * Lists the chat's model-visible tools from its sources, each with the name the model is given
   * (unique in the chat and accepted by every provider).
   */
  async listTools(chat: Chat): Promise<ListedTool[]> {
    return this.#tools.list(chat);
  }

  /** The chat's model tools as last listed: `name` as the model knows it, `tool` its own name. */
  toolsOf(chat: Chat): { name: string; tool: string; source: string; description: string }[] {
    return (this.#tools.get(chat.key) ?? []).map((entry) => ({
      name: entry.modelName,
      tool: entry.tool.name,
      source: entry.source,
      description: entry.description,
    }));
  }

  /** The `chat:tools` event of every chat whose tools were listed (for a tab after hello). */
  chatTools(): ServerEvents["chat:tools"][] {
    return this.#tools.events();
  }

  /** The replies being written, with their live parts (for a tab that just said hello). */
  liveReplies(): ChatMessage[] {
    return [...this.#running.values()].flatMap((turn) =>
      turn.reply
        ? [toWire({ ...turn.reply, parts: structuredClone(turn.parts) as StoredPart[] })]
        : [],
    );
  }

  /** The chats with a reply being written. */
  runningChats(): string[] {
    return [...this.#running.keys()];
  }

  /** A stored message, with the live parts of a reply still being written. */
  withLiveText(message: MessageRecord): ChatMessage {
    const live = [...this.#running.values()].find((turn) => turn.reply?.id === message.id);
    return toWire(live ? { ...message, parts: live.parts as StoredPart[] } : message);
  }

  /**
   * Sends a person's message: stores it (the returned promise resolves once it is committed),
   * then runs the model in the background.
   *
   * @param options - `clientId`: the browser's id of the message; a resend with the same id is
   *   not stored twice. `fromApp`: the app whose view wrote it (stored with the message).
   * @throws {HostError} `not_found` for an unknown chat, `busy` while the chat is replying; store errors.
   */
  async send(
    chatKey: string,
    text: string,
    options: { clientId: string | null; fromApp?: MessageFromApp },
  ): Promise<{ messageId: string; duplicate: boolean }> {
    const session = this.session;
    const chat = this.#chat(chatKey);
    if (options.clientId !== null) {
      const seen = this.#clientIds.get(options.clientId);
      if (seen !== undefined) return { messageId: seen, duplicate: true };
    }
    // Reserve the chat before the first await, so two quick messages cannot both start a turn.
    const turn = this.#reserve(chatKey);
    let person: MessageRecord;
    let conversation: ConversationRecord;
    let history: MessageRecord[];
    try {
      // A store failure before the message is written is reported as the message not being
      // saved: that is what the person needs to know (and the message is not acknowledged).
      conversation = await session.currentConversation(text).catch(asMessageNotSaved);
      turn.conversationId = conversation.id;
      const stored = await session.services.store
        .listMessages(conversation.id)
        .catch(asMessageNotSaved);
      history = stored.filter((message) => message.chatId === chatKey);
      person = await session.services.store.appendMessage({
        conversationId: conversation.id,
        chatId: chatKey,
        role: "user",
        parts: [{ type: "text", text }],
        ...(options.fromApp === undefined ? {} : { fromApp: options.fromApp }),
      });
      if (stored.length === 0) await session.titleFromFirstMessage(conversation, text);
    } catch (error) {
      this.#release(chatKey, turn);
      throw error;
    }
    if (options.clientId !== null) this.#clientIds.set(options.clientId, person.id);
    session.emit("message:created", { message: toWire(person) });
    turn.done = this.#startReply(chat, conversation, history, person, turn)
      .then((started) => (started ? this.#stream(chat, conversation, started, turn) : undefined))
      .finally(() => this.#release(chatKey, turn));
    return { messageId: person.id, duplicate: false };
  }

  /**
   * Runs a chat's last turn again after its reply failed, was stopped or was interrupted: no
   * message is added; a new reply to the person's last message follows the old one, which stays
   * as it was (the model is not told its partial text, see `history.ts`).
   *
   * @returns the new reply's id, once the reply is stored.
   * @throws {HostError} `not_found` for an unknown chat or message, `busy` while the chat is
   *   replying, `conflict` when the message is not the chat's last reply or it completed.
   */
  async retry(chatKey: string, messageId: string): Promise<{ messageId: string }> {
    const session = this.session;
    const chat = this.#chat(chatKey);
    const turn = this.#reserve(chatKey);
    try {
      const conversation = session.conversation;
      if (conversation === null) {
        throw new HostError("not_found", "No conversation is open; open it again, then retry.");
      }
      turn.conversationId = conversation.id;
      const stored = (await session.services.store.listMessages(conversation.id)).filter(
        (message) => message.chatId === chatKey,
      );
      const failed = stored.find((message) => message.id === messageId);
      if (failed === undefined || failed.role !== "assistant") {
        throw new HostError(
          "not_found",
          "That reply is not in this chat any more; reload the conversation.",
        );
      }
      if (stored.at(-1)?.id !== failed.id || !RETRYABLE_STATUSES.has(failed.status)) {
        throw new HostError(
          "conflict",
          "Only the chat's last reply can be retried, and only when it failed or was stopped.",
        );
      }
      const person = stored.findLast(
        (message) => message.role === "user" && message.seq < failed.seq,
      );
      if (person === undefined) {
        throw new HostError(
          "conflict",
          "This reply answers no message of yours, so there is nothing to retry.",
        );
      }
      const history = stored.filter((message) => message.seq < person.seq);
      const started = await this.#startReply(chat, conversation, history, person, turn);
      if (started === null) {
        throw new HostError("storage", "The new reply could not be saved; try again.", {
          retryable: true,
        });
      }
      turn.done = this.#stream(chat, conversation, started, turn).finally(() =>
        this.#release(chatKey, turn),
      );
      return { messageId: started.reply.id };
    } catch (error) {
      this.#release(chatKey, turn);
      throw error;
    }
  }

  /** Stops the chat's running reply; its running tool call is cancelled. */
  stop(chatKey: string): boolean {
    const turn = this.#running.get(chatKey);
    if (!turn) return false;
    turn.abort.abort(new Error(STOPPED_REASON));
    return true;
  }

  /** Stops every running reply (conversation switched, session ended). */
  stopAll(): void {
    for (const key of [...this.#running.keys()]) this.stop(key);
  }

  /** Resolves when the chat's running reply (if any) has been stored. */
  async settled(chatKey: string): Promise<void> {
    await this.#running.get(chatKey)?.done;
  }

  #chat(chatKey: string): Chat {
    const chat = this.session.chats.get(chatKey);
    if (!chat) throw new HostError("not_found", `This session has no chat "${chatKey}".`);
    return chat;
  }

  /** Marks the chat as replying, or throws `busy` when it already is. */
  #reserve(chatKey: string): RunningTurn {
    if (this.#running.has(chatKey)) {
      throw new HostError(
        "busy",
        "A reply is still being written in this chat; wait for it or stop it.",
        { retryable: true },
      );
    }
    const session = this.session;
    const parts: MessagePart[] = [];
    const turn: RunningTurn = {
      abort: new AbortController(),
      toolStarts: new Map(),
      savedAt: 0,
      conversationId: "",
      reply: null,
      parts,
      done: Promise.resolve(),
      newParagraph: false,
      streamingCards: new StreamingCards(
        session.cardService,
        (error) =>
          session.logger.warn({ err: error }, "could not open a card while its input streamed"),
        // Where a card opened by its call is: right after the call (the browser agrees).
        (card, toolCallId) =>
          parts.push({ type: "card", instanceId: card.descriptor.instanceId, toolCallId }),
      ),
    };
    this.#running.set(chatKey, turn);
    return turn;
  }

  #release(chatKey: string, turn: RunningTurn): void {
    if (this.#running.get(chatKey) === turn) this.#running.delete(chatKey);
  }

  /**
   * Builds the model's input (history and app context) and stores the start of the reply.
   *
   * @returns the reply and the model's messages, or null when the reply could not be stored.
   */
  async #startReply(
    chat: Chat,
    conversation: ConversationRecord,
    history: MessageRecord[],
    person: MessageRecord,
    turn: RunningTurn,
  ): Promise<{ reply: MessageRecord; messages: ModelMessage[]; prefixLength: number } | null> {
    const session = this.session;
    const { store, now } = session.services;
    const text = person.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    const contextText = session.contextFor(chat.key);
    const injected = (chat.host?.context ?? true) && contextText !== null;
    const builtAt = now();
    session.lastContext.set(chat.key, { text: contextText, builtAt, injected });
    session.emit("context:built", { chatId: chat.key, text: contextText, builtAt, injected });
    const past = historyForTurn(history.map(toWire), text);
    const messages = withAppContext(
      past,
      { role: "user", content: text },
      injected ? contextText : null,
    );
    let reply: MessageRecord;
    try {
      reply = await store.appendMessage({
        conversationId: conversation.id,
        chatId: chat.key,
        role: "assistant",
        parts: [],
        status: "streaming",
      });
    } catch (error) {
      session.logger.error({ err: error }, "could not store the start of a reply");
      session.emit("notice", {
        level: "error",
        message: `The reply could not be saved: ${messageOf(error)}`,
      });
      return null;
    }
    turn.reply = reply;
    session.emit("message:created", { message: toWire(reply) });
    session.emit("turn:state", {
      chatId: chat.key,
      conversationId: conversation.id,
      running: true,
    });
    return { reply, messages, prefixLength: past.length };
  }

  async #stream(
    chat: Chat,
    conversation: ConversationRecord,
    started: { reply: MessageRecord; messages: ModelMessage[]; prefixLength: number },
    turn: RunningTurn,
  ): Promise<void> {
    const session = this.session;
    const { store } = session.services;
    const { reply, messages } = started;
    const tools = await this.#hostTools(chat, turn, reply).catch((error: unknown) => {
      session.logger.warn({ err: error }, "could not list a chat's tools");
      return [] as HostTool[];
    });
    const onToolRequest = chat.options.onToolRequest;
    const result = await runTurn({
      model: session.services.model,
      ...(chat.options.system === undefined ? {} : { system: chat.options.system }),
      messages,
      tools,
      maxSteps: chat.options.maxSteps,
      maxToolCalls: chat.options.maxToolCalls,
      permissions: chat.options.permissions,
      // The stored history is resent unchanged next turn: providers may cache it.
      stablePrefixLength: started.prefixLength,
      stallTimeoutMs: session.services.modelStallTimeoutMs,
      ...(onToolRequest === undefined
        ? {}
        : {
            onToolRequest: (request) =>
              onToolRequest({
                ...request,
                name: this.#realName(chat.key, request.name),
                chat: chat.key,
              }),
          }),
      signal: turn.abort.signal,
      events: (event) => this.#onEvent(chat.key, conversation.id, reply, turn, event),
    });
    const status =
      result.status === "complete" ? "complete" : result.status === "stopped" ? "stopped" : "error";
    const error =
      result.status === "error"
        ? (result.failure?.message ??
          "The reply failed; try again, and if it keeps failing, check the server's log.")
        : undefined;
    // Cards whose call never ran (stopped while the model wrote its arguments, or arguments that
    // could not be read) would otherwise wait for a result forever.
    await turn.streamingCards.cancelAll(
      status === "stopped" ? STOPPED_REASON : (error ?? CALL_NOT_RUN_REASON),
    );
    if (error !== undefined) {
      // A summary only: the request body holds the conversation and never goes to the log.
      session.logger.warn(
        {
          chat: chat.key,
          kind: result.failure?.kind,
          provider: result.failure?.provider,
          status: result.failure?.status,
          requestId: result.failure?.requestId,
        },
        `a turn failed: ${error}`,
      );
    }
    if (result.usage !== undefined) {
      session.logger.info({ chat: chat.key, usage: result.usage }, "model usage of a turn");
    }
    try {
      const stored = await store.updateMessage(conversation.id, reply.id, {
        parts: turn.parts as StoredPart[],
        status,
        ...(error === undefined ? {} : { error }),
        ...(result.status === "error" ? { retryable: result.failure?.retryable ?? true } : {}),
        ...(result.usage === undefined ? {} : { usage: result.usage }),
      });
      session.emit("message:updated", { message: toWire(stored) });
    } catch (storeError) {
      session.logger.error({ err: storeError }, "could not store the end of a reply");
      session.emit("notice", {
        level: "error",
        message: `The reply could not be saved: ${messageOf(storeError)}`,
      });
    }
    session.emit("turn:state", {
      chatId: chat.key,
      conversationId: conversation.id,
      running: false,
    });
  }

  /** The tool's own name for a model name of the chat (unknown names are kept as they are). */
  #realName(chatKey: string, modelName: string): string {
    return this.#tools.byModelName(chatKey, modelName)?.tool.name ?? modelName;
  }

  /** The stored names of a call: its tool's own name, its source, and the model's name if it differs. */
  #callNames(
    chatKey: string,
    modelName: string,
  ): { name: string; source?: string; modelName?: string } {
    const listed = this.#tools.byModelName(chatKey, modelName);
    if (listed === undefined) return { name: modelName };
    return {
      name: listed.tool.name,
      source: listed.source,
      ...(listed.modelName === listed.tool.name ? {} : { modelName: listed.modelName }),
    };
  }

  #onEvent(
    chatKey: string,
    conversationId: string,
    reply: MessageRecord,
    turn: RunningTurn,
    event: TurnEvent,
  ): void {
    const session = this.session;
    switch (event.type) {
      case "step-started":
        turn.newParagraph = true;
        break;
      case "text-delta": {
        const last = turn.parts.at(-1);
        // A later step's text is a paragraph of its own: the blank line travels in the delta,
        // so the browser's text and the stored text stay the same.
        const hasText = turn.parts.some((part) => part.type === "text" && part.text !== "");
        const delta = turn.newParagraph && hasText ? `\n\n${event.delta}` : event.delta;
        turn.newParagraph = false;
        if (last?.type === "text") last.text += delta;
        else turn.parts.push({ type: "text", text: delta });
        // Save the text now and then, so a crash keeps most of what was said (not every delta:
        // each save rewrites the message).
        if (session.services.now() - turn.savedAt >= TEXT_SAVE_INTERVAL_MS) {
          this.#saveProgress(conversationId, reply, turn);
        }
        session.emit("message:delta", {
          conversationId,
          chatId: chatKey,
          messageId: reply.id,
          delta,
        });
        break;
      }
      case "tool-input-started":
        this.#openStreamingCard(chatKey, conversationId, reply, turn, event);
        break;
      case "tool-input-delta":
        turn.streamingCards.partial(event.toolCallId, event.partialJson);
        break;
      case "tool-started": {
        turn.toolStarts.set(event.toolCallId, session.services.now());
        const names = this.#callNames(chatKey, event.name);
        turn.parts.push({
          type: "tool-call",
          toolCallId: event.toolCallId,
          ...names,
          arguments: event.arguments,
        });
        session.emit("tool:started", {
          conversationId,
          chatId: chatKey,
          messageId: reply.id,
          toolCallId: event.toolCallId,
          ...names,
          arguments: event.arguments,
          startedAt: session.services.now(),
        });
        break;
      }
      case "tool-progress":
        session.emit("tool:progress", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        });
        break;
      case "tool-finished": {
        const { name, modelName } = this.#callNames(chatKey, event.name);
        turn.parts.push({
          type: "tool-result",
          toolCallId: event.toolCallId,
          name,
          ...(modelName === undefined ? {} : { modelName }),
          value: event.value,
          isError: event.isError,
        });
        session.emit("tool:finished", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name,
          isError: event.isError,
          value: event.value,
          durationMs: this.#toolDuration(turn, event.toolCallId),
        });
        this.#saveProgress(conversationId, reply, turn);
        break;
      }
      case "tool-cancelled":
        session.emit("tool:finished", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name: this.#realName(chatKey, event.name),
          isError: true,
          value: STOPPED_REASON,
          durationMs: this.#toolDuration(turn, event.toolCallId),
        });
        break;
      case "tool-refused": {
        const names = this.#callNames(chatKey, event.name);
        turn.parts.push(
          { type: "tool-call", toolCallId: event.toolCallId, ...names, arguments: {} },
          {
            type: "tool-result",
            toolCallId: event.toolCallId,
            name: names.name,
            ...(names.modelName === undefined ? {} : { modelName: names.modelName }),
            value: `Tool call rejected. ${event.reason}`,
            isError: true,
          },
        );
        // The browser shows a row for the call (it had no tool:started) with the refusal.
        session.emit("tool:started", {
          conversationId,
          chatId: chatKey,
          messageId: reply.id,
          toolCallId: event.toolCallId,
          ...names,
          arguments: {},
          startedAt: session.services.now(),
        });
        session.emit("tool:refused", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name: names.name,
          reason: event.reason,
        });
        // A card opened while the arguments streamed gets the refusal instead of a result.
        void turn.streamingCards.cancel(event.toolCallId, `Tool call rejected. ${event.reason}`);
        break;
      }
      default:
        break;
    }
  }

  /**
   * Opens the card of a tool with a view as soon as the model starts writing its arguments
   * (providers that stream them), so the page can show them as they arrive.
   */
  #openStreamingCard(
    chatKey: string,
    conversationId: string,
    reply: MessageRecord,
    turn: RunningTurn,
    event: Extract<TurnEvent, { type: "tool-input-started" }>,
  ): void {
    const listed = this.#tools.byModelName(chatKey, event.name);
    if (!listed || !toolHasView(listed.tool)) return;
    turn.streamingCards.open(event.toolCallId, {
      chatKey,
      conversationId,
      messageId: reply.id,
      source: listed.source,
      tool: listed.tool,
    });
  }

  /** Saves the reply so far, so a crash keeps every finished tool call (not awaited). */
  #toolDuration(turn: RunningTurn, toolCallId: string): number {
    const started = turn.toolStarts.get(toolCallId);
    turn.toolStarts.delete(toolCallId);
    return started === undefined ? 0 : Math.max(0, this.session.services.now() - started);
  }

  #saveProgress(conversationId: string, reply: MessageRecord, turn: RunningTurn): void {
    turn.savedAt = this.session.services.now();
    this.session.services.store
      .updateMessage(conversationId, reply.id, {
        parts: structuredClone(turn.parts) as StoredPart[],
      })
      .catch((error: unknown) =>
        this.session.logger.warn({ err: error }, "could not save a reply's progress"),
      );
  }

  async #hostTools(chat: Chat, turn: RunningTurn, reply: MessageRecord): Promise<HostTool[]> {
    const listed = this.#tools.get(chat.key) ?? (await this.listTools(chat));
    return listed.map(({ tool, source, modelName, description }) => {
      const hostTool: HostTool = {
        name: modelName,
        title: toolDisplayTitle(tool),
        description,
        inputSchema: tool.inputSchema as HostTool["inputSchema"],
        source,
        execute: (args, context) => this.#execute(chat, turn, reply, source, tool, args, context),
      };
      if (tool.annotations !== undefined) hostTool.annotations = tool.annotations;
      return hostTool;
    });
  }

  async #execute(
    chat: Chat,
    turn: RunningTurn,
    reply: MessageRecord,
    sourceKey: string,
    tool: SourceTool,
    args: Record<string, unknown>,
    context: Parameters<HostTool["execute"]>[1],
  ) {
    const session = this.session;
    const source = await session.sources.get(sourceKey);
    // A card opened while the arguments streamed is reused: it gets the final arguments now.
    let card = await turn.streamingCards.take(context.toolCallId);
    if (card) {
      await session.cardService.finishInput(card, args);
      card.opening = new AbortController();
      // Closed by the person while the model was still writing: the call is cut short at once.
      if (card.disposed) card.opening.abort(new Error("The card was closed."));
    } else if (toolHasView(tool)) {
      card = await session.cardService.openForToolCall({
        chatKey: chat.key,
        conversationId: turn.conversationId,
        messageId: reply.id,
        source: sourceKey,
        tool,
        arguments: args,
        toolCallId: context.toolCallId,
      });
      card.opening = new AbortController();
      turn.parts.push({
        type: "card",
        instanceId: card.descriptor.instanceId,
        toolCallId: context.toolCallId,
      });
    }
    const signal = card?.opening
      ? AbortSignal.any([context.signal, card.opening.signal])
      : context.signal;
    try {
      const result = capToolResult(
        await source.callTool(tool.name, args, {
          signal,
          timeout: session.services.toolTimeout,
          onProgress: (progress) => context.onProgress(progress),
        }),
        session.services.toolResultLimit,
      );
      if (card) await session.cardService.complete(card, result);
      return toolOutcomeFromResult(result);
    } catch (error) {
      if (context.signal.aborted) {
        if (card) await session.cardService.cancel(card, STOPPED_REASON);
        throw error;
      }
      // The card and the model get the same sentence for the person (a timeout says so plainly).
      const reason = sourceFailureMessage(error, sourceKey, source.closed);
      if (card) await session.cardService.cancel(card, reason);
      throw reason === messageOf(error) ? error : new Error(reason, { cause: error });
    }
  }
}

/** Rethrows a storage failure in the words of a message that was not saved. */
function asMessageNotSaved(error: unknown): never {
  if (isStoreError(error) && error.cause !== undefined) {
    throw toStoreError(error.cause, {
      what: "The message could not be saved",
      outcome: "nothing was sent",
    });
  }
  throw error;
}

/** A stored message as the browser sees it. */
export function toWire(message: MessageRecord): ChatMessage {
  const wire: ChatMessage = {
    id: message.id,
    conversationId: message.conversationId,
    chatId: message.chatId,
    seq: message.seq,
    role: message.role,
    parts: message.parts as MessagePart[],
    status: message.status,
    createdAt: message.createdAt,
  };
  if (message.error !== undefined) wire.error = message.error;
  if (message.retryable !== undefined) wire.retryable = message.retryable;
  if (message.usage !== undefined) wire.usage = message.usage;
  if (message.fromApp !== undefined) wire.fromApp = { ...message.fromApp };
  return wire;
}
