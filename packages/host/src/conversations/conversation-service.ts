import {
  conversationPageMessages,
  type CardDescriptor,
  type ChatInfo,
  type ChatMessage,
  type ConversationPage,
  type ConversationSnapshot,
  type ConversationSummary,
  type SessionSnapshot,
} from "@mcp-chat-host/protocol";
import { HostError } from "../host-error";
import type { SessionContext } from "../session/session-context";
import type { CardRecord, ConversationRecord, MessageRecord } from "../store/host-store";
import { defaultConversationTitle } from "../store/store-rules";

/**
 * What a snapshot needs from the session's cards and turns, given by the session (this service
 * knows neither): the live state the store does not hold yet.
 */
export interface ConversationViews {
  /** Resolves when every chat host has listed its tools. */
  ready(): Promise<void>;
  /** A stored message as the browser sees it, with the live parts of a reply being written. */
  message(record: MessageRecord): ChatMessage;
  /** A stored card as the browser sees it. */
  card(record: CardRecord): CardDescriptor;
  /** The session's open panes. */
  panes(): CardDescriptor[];
  /** The chats with a reply being written. */
  runningChats(): string[];
}

/**
 * Which conversation a session shows, and the person's conversations: listing, creating,
 * opening, renaming, deleting, exporting and importing them, each only the signed-in user's.
 * Leaving the shown conversation (opening another, deleting it) tells the `onLeave` listeners,
 * which stop its replies and close its cards.
 */
export class ConversationService {
  #shown: ConversationRecord | null = null;
  readonly #leaveListeners: ((conversationId: string) => void)[] = [];
  readonly #showListeners: ((conversationId: string) => void)[] = [];

  constructor(
    private readonly context: SessionContext,
    private readonly views: ConversationViews,
  ) {}

  /** The conversation shown, or null until the first message creates one. */
  shown(): ConversationRecord | null {
    return this.#shown;
  }

  /** Registers a function called with the id of a conversation the session stops showing. */
  onLeave(listener: (conversationId: string) => void): void {
    this.#leaveListeners.push(listener);
  }

  /**
   * Registers a function called with the id of a conversation the session starts showing, before
   * its snapshot is read (the server moves the tab's socket to the conversation's room then).
   */
  onShow(listener: (conversationId: string) => void): void {
    this.#showListeners.push(listener);
  }

  /** The chats as the browser lays them out. */
  chatInfos(): ChatInfo[] {
    return [...this.context.chats.values()].map((chat) => ({
      id: chat.key,
      title: chat.options.title,
      messages: chat.host?.messages ?? "compose",
      context: chat.host?.context ?? true,
    }));
  }

  /** The snapshot `session:hello` answers with; opens the asked-for conversation. */
  async hello(conversationId: string | undefined): Promise<SessionSnapshot> {
    const { user, services } = this.context;
    await this.views.ready();
    if (conversationId !== undefined && conversationId !== this.#shown?.id) {
      const found = await services.store.getConversation(user.id, conversationId);
      if (found) this.#show(found);
    }
    return {
      sessionId: this.context.id,
      user: user.name === undefined ? { id: user.id } : { id: user.id, name: user.name },
      chats: this.chatInfos(),
      panes: this.views.panes(),
      conversations: await this.list(),
      current: this.#shown ? await this.snapshot(this.#shown) : null,
      model: services.modelName,
      ...(services.liveViews === undefined ? {} : { liveViews: services.liveViews }),
      ...(services.signOut === true ? { signOut: true } : {}),
    };
  }

  /** The user's conversations, newest first. */
  async list(): Promise<ConversationSummary[]> {
    const records = await this.context.services.store.listConversations(this.context.user.id);
    return records.map(conversationSummary);
  }

  /** Creates a conversation and shows it. */
  async create(title?: string): Promise<ConversationSnapshot> {
    const record = await this.context.services.store.createConversation(
      this.context.user.id,
      title === undefined ? {} : { title },
    );
    this.#show(record);
    return this.snapshot(record);
  }

  /** Shows a conversation of this user. */
  async open(conversationId: string): Promise<ConversationSnapshot> {
    const record = await this.#own(conversationId);
    this.#show(record);
    return this.snapshot(record);
  }

  /**
   * A page of a conversation of this user: up to `limit` messages before the one numbered
   * `before`, with the cards they show (the snapshot carries only the latest page).
   */
  async messages(
    conversationId: string,
    before: number,
    limit: number = conversationPageMessages,
  ): Promise<ConversationPage> {
    const record = await this.#own(conversationId);
    const { store } = this.context.services;
    const [page, cards] = await Promise.all([
      store.listMessagePage(record.id, { before, limit }),
      store.listCards(record.id),
    ]);
    return {
      messages: page.messages.map((message) => this.views.message(message)),
      cards: cardsShownBy(page.messages, cards, false).map((card) => this.views.card(card)),
      earlier: page.earlier,
    };
  }

  /** Renames a conversation of this user. */
  async rename(conversationId: string, title: string): Promise<ConversationSummary> {
    const record = await this.context.services.store.renameConversation(
      this.context.user.id,
      conversationId,
      title,
    );
    if (!record) throw notYours();
    if (this.#shown?.id === record.id) this.#shown = record;
    return conversationSummary(record);
  }

  /** Deletes a conversation of this user; deleting the shown one leaves it first. */
  async delete(conversationId: string): Promise<void> {
    if (this.#shown?.id === conversationId) {
      this.#leave(conversationId);
      this.#shown = null;
    }
    const deleted = await this.context.services.store.deleteConversation(
      this.context.user.id,
      conversationId,
    );
    if (!deleted) throw notYours();
  }

  /** A conversation of this user as an export document. */
  async export(conversationId: string): Promise<Record<string, unknown>> {
    const document = await this.context.services.store.exportConversation(
      this.context.user.id,
      conversationId,
    );
    if (!document) throw notYours();
    return document as unknown as Record<string, unknown>;
  }

  /** Imports a conversation; it is restored like a saved one when opened. */
  async import(document: unknown): Promise<ConversationSummary> {
    return conversationSummary(
      await this.context.services.store.importConversation(this.context.user.id, document),
    );
  }

  /** The shown conversation, created (titled from `titleHint`) when there is none. */
  async current(titleHint: string): Promise<ConversationRecord> {
    if (this.#shown) return this.#shown;
    const title = titleFrom(titleHint);
    const record = await this.context.services.store.createConversation(this.context.user.id, {
      title,
    });
    this.#show(record);
    await this.announce();
    return record;
  }

  /**
   * A conversation made with "New conversation" takes its first message as its title; a failure
   * to rename is logged, never fatal (the message itself is already stored).
   */
  async titleFromFirstMessage(record: ConversationRecord, text: string): Promise<void> {
    if (record.title !== defaultConversationTitle) return;
    const title = titleFrom(text);
    if (title === defaultConversationTitle) return;
    try {
      const renamed = await this.context.services.store.renameConversation(
        this.context.user.id,
        record.id,
        title,
      );
      if (renamed && this.#shown?.id === renamed.id) this.#shown = renamed;
      await this.announce();
    } catch (error) {
      this.context.logger.warn(
        { err: error },
        "could not title a conversation from its first message",
      );
    }
  }

  /** Tells the tab its conversation list changed (a new, renamed, deleted or imported one). */
  async announce(): Promise<void> {
    try {
      this.context.emit("conversations:changed", { conversations: await this.list() });
    } catch (error) {
      this.context.logger.warn({ err: error }, "could not list conversations");
    }
  }

  /**
   * Everything the browser needs to show a conversation: its latest page of messages (the
   * browser asks for earlier ones with `conversation:messages`), the cards they show and the
   * cards of no message. A reply being written is the last message, so it is always there.
   */
  async snapshot(record: ConversationRecord): Promise<ConversationSnapshot> {
    const { store } = this.context.services;
    const [page, cards] = await Promise.all([
      store.listMessagePage(record.id, { limit: conversationPageMessages }),
      store.listCards(record.id),
    ]);
    return {
      conversation: conversationSummary(record),
      messages: page.messages.map((message) => this.views.message(message)),
      cards: cardsShownBy(page.messages, cards, true).map((card) => this.views.card(card)),
      earlier: page.earlier,
      running: this.views.runningChats(),
    };
  }

  /** The conversation if it is this user's, else a `not_found` error. */
  async #own(conversationId: string): Promise<ConversationRecord> {
    const record = await this.context.services.store.getConversation(
      this.context.user.id,
      conversationId,
    );
    if (!record) throw notYours();
    return record;
  }

  #show(record: ConversationRecord): void {
    if (this.#shown && this.#shown.id !== record.id) this.#leave(this.#shown.id);
    this.#shown = record;
    for (const listener of this.#showListeners) listener(record.id);
  }

  #leave(conversationId: string): void {
    for (const listener of this.#leaveListeners) listener(conversationId);
  }
}

/**
 * The cards that show with some of the messages: the ones a message opened or holds a part of,
 * and (`loose`) the ones of no message.
 */
function cardsShownBy(
  messages: readonly MessageRecord[],
  cards: readonly CardRecord[],
  loose: boolean,
): CardRecord[] {
  const messageIds = new Set(messages.map((message) => message.id));
  const partIds = new Set(
    messages.flatMap((message) =>
      message.parts.flatMap((part) =>
        part.type === "card" || (part.type === "tool" && part.instanceId !== undefined)
          ? [part.instanceId]
          : [],
      ),
    ),
  );
  return cards.filter((card) =>
    card.messageId === undefined
      ? loose || partIds.has(card.instanceId)
      : messageIds.has(card.messageId) || partIds.has(card.instanceId),
  );
}

/** A conversation's title from a message: its first 60 characters on one line. */
function titleFrom(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 60) || defaultConversationTitle;
}

/** A conversation record as the browser lists it. */
function conversationSummary(record: ConversationRecord): ConversationSummary {
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
