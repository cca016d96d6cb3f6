import {
  type ChatInfo,
  type ConversationSnapshot,
  type ConversationSummary,
  type ServerEventName,
  type ServerEvents,
  type SessionSnapshot,
} from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import { appMessageModes } from "../app-messages/app-message";
import { cardChatKey } from "../app-messages/card-chat-key";
import { CardRegistry } from "../cards/card-registry";
import { CardService, type ShowCardOptions } from "../cards/card-service";
import {
  Chat,
  chatOptionsWithDefaults,
  type ChatHostHandle,
  type ChatHostOptions,
  type ChatOptions,
} from "../chat/chat";
import { chatKey } from "../chat/chat-keys";
import { buildAppContext } from "../context/context-relay";
import type { OnAppCall } from "../gate/app-call-gate";
import { ApprovalBroker } from "../gate/approval-broker";
import type { ConversationRecord } from "../store/host-store";
import { TurnService } from "../turns/turn-service";
import { HostError } from "../host-error";
import { linkChat } from "../mcp-chat-host";
import type { SessionServices } from "./session-services";
import { SessionSources, type SourceSpec } from "./session-sources";

/** Who is signed in to a session. */
export interface SessionUser {
  id: string;
  name?: string;
}

/** Sends server events to the session's browser tab, when it is connected. */
export type SessionEmitter = <E extends ServerEventName>(
  event: E,
  payload: ServerEvents[E],
) => void;

/** What the model was told at a chat's last turn, for the context inspector. */
export interface BuiltContext {
  text: string | null;
  builtAt: number;
  injected: boolean;
}

/**
 * One signed-in browser tab: its chats and their chat hosts, its sources, its live cards and
 * panes, its approval dialogs and the conversation it shows. The session function given to
 * `createHostServer` receives it and builds the chats with {@link HostSession.chat} and
 * `mcpChatHost()`.
 */
export class HostSession {
  /** @internal */ readonly chats = new Map<string, Chat>();
  /** @internal */ readonly sources: SessionSources;
  /** @internal */ readonly cards = new CardRegistry();
  /** @internal */ readonly broker: ApprovalBroker;
  /** @internal */ readonly cardService: CardService;
  /** @internal */ readonly turnService: TurnService;
  /** @internal every hook registered in the session, by source key (restored cards' chains). */
  readonly hooksBySource = new Map<string, Set<OnAppCall>>();
  /** @internal what each chat's model was told at its last turn. */
  readonly lastContext = new Map<string, BuiltContext>();
  /** @internal the conversation shown, or null until the first message creates one. */
  conversation: ConversationRecord | null = null;
  /** @internal */ readonly logger: Logger;
  /** @internal the `Host` the tab's page came from (its sandboxes stay on the same site). */
  pageHost: string | undefined;
  readonly #ready: Promise<void>[] = [];
  readonly #endListeners: (() => void | Promise<void>)[] = [];
  #emitter: SessionEmitter | null = null;
  #ended = false;

  /** @internal made by the server for each signed-in tab. */
  constructor(
    /** The session's id. */
    readonly id: string,
    /** The signed-in person (with token auth, the operator). */
    readonly user: SessionUser,
    /** @internal */ readonly services: SessionServices,
  ) {
    this.logger = services.logger.child({ session: id, user: user.id });
    this.sources = new SessionSources(services.configured, services.processSources);
    this.broker = new ApprovalBroker({
      onRequest: (request) => this.emit("approval:request", request),
      onSettle: (approvalId) => this.emit("approval:settled", { approvalId }),
      memory: {
        listApprovals: (conversationId) => services.store.listApprovals(conversationId),
        remember: async (record) => {
          await services.store.rememberApproval(record);
        },
      },
      warn: (message) => this.logger.warn(message),
      now: services.now,
    });
    this.cardService = new CardService(this);
    this.turnService = new TurnService(this);
  }

  /**
   * Adds a chat to the session (seed-behaviours 1.7): its key is `id`, or `chat-<n>`, made unique
   * when already taken (`support` → `support.1`).
   *
   * @returns the chat; give it to `mcpChatHost()` to attach sources.
   * @throws {TypeError} for bad limits.
   */
  chat(options: ChatOptions = {}): Chat {
    const key = chatKey([...this.chats.keys()], options.id);
    const chat = new Chat(key, chatOptionsWithDefaults(key, options), this.id);
    this.chats.set(key, chat);
    linkChat(chat, this);
    return chat;
  }

  /**
   * Attaches sources to a chat (see `mcpChatHost`).
   *
   * @internal
   */
  attachChatHost(chat: Chat, sources: SourceSpec[], options: ChatHostOptions): ChatHostHandle {
    if (!(chat instanceof Chat) || this.chats.get(chat.key) !== chat) {
      throw new HostError("bad_request", "`chat` must be a chat made with `session.chat()`.");
    }
    if (chat.host)
      throw new HostError("bad_request", `The chat "${chat.key}" already has a chat host.`);
    const messages = options.messages ?? "compose";
    if (!appMessageModes.includes(messages)) {
      throw new HostError(
        "bad_request",
        '`messages` must be one of "compose", "submit" or "ignore".',
      );
    }
    const onAppCall = options.onAppCall ?? null;
    if (onAppCall !== null && typeof onAppCall !== "function") {
      throw new HostError("bad_request", "`onAppCall` must be a function or `null`.");
    }
    const keys = sources.map((spec) => this.sources.keyOf(spec));
    const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
    if (repeated !== undefined) {
      throw new HostError(
        "bad_request",
        `Each source needs its own name; "${repeated}" is used twice.`,
      );
    }
    for (const spec of sources) this.sources.register(spec);
    if (onAppCall) for (const key of keys) this.registerHook(key, onAppCall);
    chat.host = {
      sources,
      sourceKeys: keys,
      context: options.context ?? true,
      messages,
      onAppCall,
      title: options.title,
    };
    const turns = this.turnService;
    const ready = turns.listTools(chat).then(() => undefined);
    // A source that fails to list is reported when the chat is used; the session still starts.
    this.#ready.push(
      ready.catch((error: unknown) =>
        this.logger.warn({ err: error, chat: chat.key }, "a source could not list its tools"),
      ),
    );
    return {
      key: chat.key,
      context: () => this.contextFor(chat.key),
      get tools() {
        return turns.toolsOf(chat);
      },
      ready,
    };
  }

  /**
   * Shows an app as a pane beside the conversation: its tool is called first (the opening call),
   * and its page's calls pass `onAppCall`. Panes belong to no chat and never reach a model.
   *
   * @returns the pane's instance id.
   */
  async pane(source: SourceSpec, options: ShowCardOptions = {}): Promise<string> {
    return this.cardService.showByHand(source, { ...options, kind: "pane" });
  }

  /**
   * Adds a card built by hand to the conversation (`mcpContentResult`): its tool is called first,
   * and the card belongs to the session's only chat (or to none when there are several).
   *
   * @returns the card's instance id.
   */
  async showCard(source: SourceSpec, options: ShowCardOptions = {}): Promise<string> {
    return this.cardService.showByHand(source, { ...options, kind: "card" });
  }

  /** Registers a function called once when the session ends. */
  onEnd(listener: () => void | Promise<void>): void {
    this.#endListeners.push(listener);
  }

  /** The text the model is (or would be) given about a chat's open cards, or null. */
  contextFor(chatKeyValue: string): string | null {
    const chatKeys = [...this.chats.keys()];
    return buildAppContext(
      this.cards.contextCards((owner) => cardChatKey(owner, chatKeys)),
      chatKeyValue,
    );
  }

  /** @internal registers a hook for a source (restored cards consult every one). */
  registerHook(sourceKey: string, hook: OnAppCall): void {
    const hooks = this.hooksBySource.get(sourceKey) ?? new Set<OnAppCall>();
    hooks.add(hook);
    this.hooksBySource.set(sourceKey, hooks);
  }

  /** @internal resolves when every chat host has listed its tools. */
  async ready(): Promise<void> {
    await Promise.all(this.#ready);
  }

  /** @internal sends an event to the tab, if connected. */
  emit<E extends ServerEventName>(event: E, payload: ServerEvents[E]): void {
    this.#emitter?.(event, payload);
  }

  /** @internal connects (or reconnects) the tab's socket. */
  connect(emitter: SessionEmitter): void {
    this.#emitter = emitter;
  }

  /** @internal the tab's socket went away; the session lives on for a grace period. */
  disconnect(emitter: SessionEmitter): void {
    if (this.#emitter === emitter) this.#emitter = null;
  }

  /** @internal true once ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** @internal ends the session: stops turns, refuses waiting approvals, closes sources. */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.turnService.stopAll();
    this.broker.close();
    this.cards.disposeAll();
    for (const listener of this.#endListeners) {
      try {
        await listener();
      } catch (error) {
        this.logger.warn({ err: error }, "a session end listener failed");
      }
    }
    await this.sources.closeAll();
  }

  // ---- conversations -------------------------------------------------------------------------

  /** @internal the chats as the browser lays them out. */
  chatInfos(): ChatInfo[] {
    return [...this.chats.values()].map((chat) => ({
      id: chat.key,
      title: chat.options.title,
      messages: chat.host?.messages ?? "compose",
      context: chat.host?.context ?? true,
    }));
  }

  /** @internal the snapshot `session:hello` answers with; opens the asked-for conversation. */
  async hello(conversationId: string | undefined): Promise<SessionSnapshot> {
    await this.ready();
    if (conversationId !== undefined && conversationId !== this.conversation?.id) {
      const found = await this.services.store.getConversation(this.user.id, conversationId);
      if (found) this.switchConversation(found);
    }
    return {
      sessionId: this.id,
      user:
        this.user.name === undefined
          ? { id: this.user.id }
          : { id: this.user.id, name: this.user.name },
      chats: this.chatInfos(),
      panes: this.cardService.paneDescriptors(),
      conversations: await this.listConversations(),
      current: this.conversation ? await this.snapshot(this.conversation) : null,
      model: this.services.modelName,
    };
  }

  /** @internal */
  async listConversations(): Promise<ConversationSummary[]> {
    const records = await this.services.store.listConversations(this.user.id);
    return records.map(summary);
  }

  /** @internal creates a conversation and shows it. */
  async createConversation(title?: string): Promise<ConversationSnapshot> {
    const record = await this.services.store.createConversation(
      this.user.id,
      title === undefined ? {} : { title },
    );
    this.switchConversation(record);
    return this.snapshot(record);
  }

  /** @internal shows a conversation of this user. */
  async openConversation(conversationId: string): Promise<ConversationSnapshot> {
    const record = await this.ownConversation(conversationId);
    this.switchConversation(record);
    return this.snapshot(record);
  }

  /** @internal */
  async renameConversation(conversationId: string, title: string): Promise<ConversationSummary> {
    const record = await this.services.store.renameConversation(
      this.user.id,
      conversationId,
      title,
    );
    if (!record) throw notYours();
    if (this.conversation?.id === record.id) this.conversation = record;
    return summary(record);
  }

  /** @internal */
  async deleteConversation(conversationId: string): Promise<void> {
    if (this.conversation?.id === conversationId) {
      this.turnService.stopAll();
      this.closeConversationCards(conversationId);
      this.conversation = null;
    }
    const deleted = await this.services.store.deleteConversation(this.user.id, conversationId);
    if (!deleted) throw notYours();
  }

  /** @internal */
  async exportConversation(conversationId: string): Promise<Record<string, unknown>> {
    const document = await this.services.store.exportConversation(this.user.id, conversationId);
    if (!document) throw notYours();
    return document as unknown as Record<string, unknown>;
  }

  /** @internal an imported conversation is restored like a saved one. */
  async importConversation(document: unknown): Promise<ConversationSummary> {
    return summary(await this.services.store.importConversation(this.user.id, document));
  }

  /** @internal the conversation if it is this user's, else a `not_found` error. */
  async ownConversation(conversationId: string): Promise<ConversationRecord> {
    const record = await this.services.store.getConversation(this.user.id, conversationId);
    if (!record) throw notYours();
    return record;
  }

  /** @internal the shown conversation, created with the first message when there is none. */
  async currentConversation(titleHint: string): Promise<ConversationRecord> {
    if (this.conversation) return this.conversation;
    const title = titleFrom(titleHint);
    const record = await this.services.store.createConversation(this.user.id, { title });
    this.switchConversation(record);
    await this.announceConversations();
    return record;
  }

  /**
   * @internal a conversation made with "New conversation" takes its first message as its title;
   * a failure to rename is logged, never fatal (the message itself is already stored).
   */
  async titleFromFirstMessage(record: ConversationRecord, text: string): Promise<void> {
    if (record.title !== DEFAULT_TITLE) return;
    const title = titleFrom(text);
    if (title === DEFAULT_TITLE) return;
    try {
      const renamed = await this.services.store.renameConversation(this.user.id, record.id, title);
      if (renamed && this.conversation?.id === renamed.id) this.conversation = renamed;
      await this.announceConversations();
    } catch (error) {
      this.logger.warn({ err: error }, "could not title a conversation from its first message");
    }
  }

  /** @internal tells the tab its conversation list changed (a new, renamed, deleted or imported one). */
  async announceConversations(): Promise<void> {
    try {
      this.emit("conversations:changed", { conversations: await this.listConversations() });
    } catch (error) {
      this.logger.warn({ err: error }, "could not list conversations");
    }
  }

  /** @internal */
  switchConversation(record: ConversationRecord): void {
    if (this.conversation && this.conversation.id !== record.id) {
      this.turnService.stopAll();
      this.closeConversationCards(this.conversation.id);
    }
    this.conversation = record;
  }

  /** @internal closes a conversation's live cards; their waiting approvals are refused. */
  closeConversationCards(conversationId: string): void {
    for (const instanceId of this.cards.disposeConversation(conversationId)) {
      this.broker.cancelCard(instanceId);
    }
  }

  /** @internal everything the browser needs to show a conversation. */
  async snapshot(record: ConversationRecord): Promise<ConversationSnapshot> {
    const [messages, cards] = await Promise.all([
      this.services.store.listMessages(record.id),
      this.services.store.listCards(record.id),
    ]);
    return {
      conversation: summary(record),
      messages: messages.map((message) => this.turnService.withLiveText(message)),
      cards: cards.map((card) => this.cardService.descriptorOf(card)),
      running: this.turnService.runningChats(),
    };
  }
}

const DEFAULT_TITLE = "New conversation";

/** A conversation's title from a message: its first 60 characters on one line. */
function titleFrom(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 60) || DEFAULT_TITLE;
}

/** A conversation record as the browser lists it. */
export function summary(record: ConversationRecord): ConversationSummary {
  return {
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    imported: record.imported,
  };
}

function notYours(): HostError {
  return new HostError("not_found", "That conversation doesn't exist, or isn't yours.");
}
