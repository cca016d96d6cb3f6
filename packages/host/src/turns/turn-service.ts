import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
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
import { isVisibleTo, toolDisplayTitle, toolHasView } from "../sources/tool-metadata";
import { isStoreError, toStoreError } from "../store/store-error";
import type {
  ConversationRecord,
  MessageRecord,
  MessagePart as StoredPart,
} from "../store/host-store";
import { toModelMessages } from "./history";
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
}

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
  readonly #tools = new Map<string, { tool: SourceTool; source: string }[]>();

  constructor(private readonly session: HostSession) {}

  /** The chat's model-visible tools, listed from its sources (duplicates after the first skipped). */
  async listTools(chat: Chat): Promise<{ tool: SourceTool; source: string }[]> {
    const listed: { tool: SourceTool; source: string }[] = [];
    const seen = new Set<string>();
    for (const key of chat.host?.sourceKeys ?? []) {
      const source = await this.session.sources.get(key);
      const tools = (await source.tools()).filter((tool) => isVisibleTo(tool, "model"));
      if (tools.length === 0) {
        this.session.logger.warn(`${key} has no tools for the model to call.`);
      }
      for (const tool of tools) {
        if (seen.has(tool.name)) {
          this.session.logger.warn(
            { source: key, tool: tool.name },
            `Two sources of chat "${chat.key}" have a tool named "${tool.name}"; the model is given the first.`,
          );
          continue;
        }
        seen.add(tool.name);
        listed.push({ tool, source: key });
      }
    }
    this.#tools.set(chat.key, listed);
    return listed;
  }

  /** The chat's model tools as last listed. */
  toolsOf(chat: Chat): { name: string; source: string; description: string }[] {
    return (this.#tools.get(chat.key) ?? []).map(({ tool, source }) => ({
      name: tool.name,
      source,
      description: tool.description ?? tool.title ?? "",
    }));
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
   * @param clientId - the browser's id of the message; a resend with the same id is not stored twice.
   * @throws {HostError} `not_found` for an unknown chat, `busy` while the chat is replying; store errors.
   */
  async send(
    chatKey: string,
    text: string,
    options: { clientId: string | null },
  ): Promise<{ messageId: string; duplicate: boolean }> {
    const session = this.session;
    const chat = session.chats.get(chatKey);
    if (!chat) throw new HostError("not_found", `This session has no chat "${chatKey}".`);
    if (options.clientId !== null) {
      const seen = this.#clientIds.get(options.clientId);
      if (seen !== undefined) return { messageId: seen, duplicate: true };
    }
    if (this.#running.has(chatKey)) {
      throw new HostError(
        "busy",
        "A reply is still being written in this chat; wait for it or stop it.",
        { retryable: true },
      );
    }
    // Reserve the chat before the first await, so two quick messages cannot both start a turn.
    const parts: MessagePart[] = [];
    const turn: RunningTurn = {
      abort: new AbortController(),
      toolStarts: new Map(),
      savedAt: 0,
      conversationId: "",
      reply: null,
      parts,
      done: Promise.resolve(),
      streamingCards: new StreamingCards(
        session.cardService,
        (error) =>
          session.logger.warn({ err: error }, "could not open a card while its input streamed"),
        // Where a card opened by its call would be: after the call.
        (card) => parts.push({ type: "card", instanceId: card.descriptor.instanceId }),
      ),
    };
    this.#running.set(chatKey, turn);
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
      });
      if (stored.length === 0) await session.titleFromFirstMessage(conversation, text);
    } catch (error) {
      this.#running.delete(chatKey);
      throw error;
    }
    if (options.clientId !== null) this.#clientIds.set(options.clientId, person.id);
    session.emit("message:created", { message: toWire(person) });
    turn.done = this.#run(chat, conversation, history, person, turn).finally(() => {
      if (this.#running.get(chatKey) === turn) this.#running.delete(chatKey);
    });
    return { messageId: person.id, duplicate: false };
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

  async #run(
    chat: Chat,
    conversation: ConversationRecord,
    history: MessageRecord[],
    person: MessageRecord,
    turn: RunningTurn,
  ): Promise<void> {
    const session = this.session;
    const { store, now } = session.services;
    const text = person.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    const contextText = session.contextFor(chat.key);
    const injected = (chat.host?.context ?? true) && contextText !== null;
    const builtAt = now();
    session.lastContext.set(chat.key, { text: contextText, builtAt, injected });
    session.emit("context:built", { chatId: chat.key, text: contextText, builtAt, injected });
    const messages = withAppContext(
      toModelMessages(history.map(toWire)),
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
      return;
    }
    turn.reply = reply;
    session.emit("message:created", { message: toWire(reply) });
    session.emit("turn:state", {
      chatId: chat.key,
      conversationId: conversation.id,
      running: true,
    });
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
      ...(onToolRequest === undefined
        ? {}
        : { onToolRequest: (request) => onToolRequest({ ...request, chat: chat.key }) }),
      signal: turn.abort.signal,
      events: (event) => this.#onEvent(chat.key, conversation.id, reply, turn, event),
    });
    const status =
      result.status === "complete" ? "complete" : result.status === "stopped" ? "stopped" : "error";
    const error =
      result.status === "error" ? `The model failed: ${messageOf(result.error)}` : undefined;
    // Cards whose call never ran (stopped while the model wrote its arguments, or arguments that
    // could not be read) would otherwise wait for a result forever.
    await turn.streamingCards.cancelAll(
      status === "stopped" ? STOPPED_REASON : (error ?? CALL_NOT_RUN_REASON),
    );
    if (error) session.logger.warn({ err: result.error, chat: chat.key }, "a turn failed");
    try {
      const stored = await store.updateMessage(conversation.id, reply.id, {
        parts: turn.parts as StoredPart[],
        status,
        ...(error === undefined ? {} : { error }),
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

  #onEvent(
    chatKey: string,
    conversationId: string,
    reply: MessageRecord,
    turn: RunningTurn,
    event: TurnEvent,
  ): void {
    const session = this.session;
    switch (event.type) {
      case "text-delta": {
        const last = turn.parts.at(-1);
        if (last?.type === "text") last.text += event.delta;
        else turn.parts.push({ type: "text", text: event.delta });
        // Save the text now and then, so a crash keeps most of what was said (not every delta:
        // each save rewrites the message).
        if (session.services.now() - turn.savedAt >= TEXT_SAVE_INTERVAL_MS) {
          this.#saveProgress(conversationId, reply, turn);
        }
        session.emit("message:delta", {
          conversationId,
          chatId: chatKey,
          messageId: reply.id,
          delta: event.delta,
        });
        break;
      }
      case "tool-input-started":
        this.#openStreamingCard(chatKey, conversationId, reply, turn, event);
        break;
      case "tool-input-delta":
        turn.streamingCards.partial(event.toolCallId, event.partialJson);
        break;
      case "tool-started":
        turn.toolStarts.set(event.toolCallId, session.services.now());
        turn.parts.push({
          type: "tool-call",
          toolCallId: event.toolCallId,
          name: event.name,
          arguments: event.arguments,
        });
        session.emit("tool:started", {
          conversationId,
          chatId: chatKey,
          messageId: reply.id,
          toolCallId: event.toolCallId,
          name: event.name,
          arguments: event.arguments,
          startedAt: session.services.now(),
        });
        break;
      case "tool-progress":
        session.emit("tool:progress", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        });
        break;
      case "tool-finished":
        turn.parts.push({
          type: "tool-result",
          toolCallId: event.toolCallId,
          name: event.name,
          value: event.value,
          isError: event.isError,
        });
        session.emit("tool:finished", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name: event.name,
          isError: event.isError,
          value: event.value,
          durationMs: this.#toolDuration(turn, event.toolCallId),
        });
        this.#saveProgress(conversationId, reply, turn);
        break;
      case "tool-cancelled":
        session.emit("tool:finished", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name: event.name,
          isError: true,
          value: STOPPED_REASON,
          durationMs: this.#toolDuration(turn, event.toolCallId),
        });
        break;
      case "tool-refused":
        turn.parts.push(
          { type: "tool-call", toolCallId: event.toolCallId, name: event.name, arguments: {} },
          {
            type: "tool-result",
            toolCallId: event.toolCallId,
            name: event.name,
            value: `Tool call rejected. ${event.reason}`,
            isError: true,
          },
        );
        session.emit("tool:refused", {
          chatId: chatKey,
          toolCallId: event.toolCallId,
          name: event.name,
          reason: event.reason,
        });
        // A card opened while the arguments streamed gets the refusal instead of a result.
        void turn.streamingCards.cancel(event.toolCallId, `Tool call rejected. ${event.reason}`);
        break;
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
    const listed = (this.#tools.get(chatKey) ?? []).find(({ tool }) => tool.name === event.name);
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
    return listed.map(({ tool, source }) => {
      const hostTool: HostTool = {
        name: tool.name,
        title: toolDisplayTitle(tool),
        description: tool.description ?? tool.title ?? "",
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
      });
      card.opening = new AbortController();
      turn.parts.push({ type: "card", instanceId: card.descriptor.instanceId });
    }
    const signal = card?.opening
      ? AbortSignal.any([context.signal, card.opening.signal])
      : context.signal;
    try {
      const result = await source.callTool(tool.name, args, {
        signal,
        timeout: session.services.toolTimeout,
        onProgress: (progress) => context.onProgress(progress),
      });
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
  return wire;
}
