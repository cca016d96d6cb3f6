import type Database from "better-sqlite3";
import { buildConversationDocument, parseConversationDocument } from "./conversation-export";
import type {
  ApprovalRecord,
  CardRecord,
  ConversationDocument,
  ConversationRecord,
  HostStore,
  MessageChanges,
  MessagePage,
  MessageRecord,
  NewApproval,
  NewCard,
  NewConversation,
  NewMessage,
  UserRecord,
} from "./host-store";
import { SqliteClusterStore, type SqliteStoreOptions } from "./sqlite-cluster-store";
import { toStoreError, type StoreAction } from "./store-error";
import {
  applyMessageChanges,
  isLateProgressSave,
  checkApprovalScope,
  checkTitle,
  conversationMissing,
  defaultConversationTitle,
  messageMissing,
  pageOf,
  pastLastSeq,
  rememberApprovalAction as rememberApproval,
  requireText,
  saveCardAction as saveCard,
  saveMessageAction as saveMessage,
} from "./store-rules";

export type { SqliteStoreOptions } from "./sqlite-cluster-store";

/**
 * {@link HostStore} on SQLite through better-sqlite3. better-sqlite3 is synchronous, so each
 * write's transaction has usually committed before the returned promise exists; one the database
 * was too busy for (another connection held the write lock past the busy timeout) is tried again
 * on a timer, with the later operations queued behind it in order (see `BusyRetry`).
 *
 * The connection is set up with WAL, `foreign_keys=ON`, `synchronous=FULL` (a committed write
 * survives a power cut, which "never acknowledge what is not yet stored" needs) and a
 * `busy_timeout`; write transactions begin IMMEDIATE; the schema is migrated forward on
 * construction.
 */
export class SqliteStore extends SqliteClusterStore implements HostStore {
  /**
   * Takes ownership of an open connection (`openStore` is the usual way in; tests pass their own
   * connection to inject faults).
   *
   * @param database - an open better-sqlite3 connection; closed by {@link SqliteStore.close}.
   * @param options - clock, id maker, busy timeout.
   * @throws StoreError `storage_failed` when the file cannot be set up or its schema is newer.
   */
  constructor(database: Database.Database, options: SqliteStoreOptions = {}) {
    super(database, options);
  }

  ensureUser(id: string, name?: string): Promise<UserRecord> {
    return this.inTransaction({ what: "The user could not be saved" }, () => {
      requireText(id, "A user id");
      const existing = this.tables.findUser(id);
      if (existing === undefined) {
        const user: UserRecord = { id, name: name ?? id, createdAt: this.time() };
        this.tables.insertUserIfMissing(user);
        return user;
      }
      if (name === undefined || name === existing.name) return existing;
      this.tables.renameUser(id, name);
      return { ...existing, name };
    });
  }

  getUser(id: string): Promise<UserRecord | null> {
    return this.attempt(
      { what: "The user could not be loaded" },
      () => this.tables.findUser(id) ?? null,
    );
  }

  createConversation(
    userId: string,
    conversation: NewConversation = {},
  ): Promise<ConversationRecord> {
    return this.inTransaction({ what: "The conversation could not be created" }, () => {
      const createdAt = this.time(conversation.createdAt);
      const record: ConversationRecord = {
        id: conversation.id ?? this.randomId(),
        userId,
        title: checkTitle(conversation.title ?? defaultConversationTitle),
        createdAt,
        updatedAt: createdAt,
        imported: false,
      };
      this.insertConversation(record);
      return record;
    });
  }

  listConversations(userId: string): Promise<ConversationRecord[]> {
    return this.attempt({ what: "The conversations could not be loaded" }, () =>
      this.tables.listConversations(userId),
    );
  }

  getConversation(userId: string, id: string): Promise<ConversationRecord | null> {
    return this.attempt({ what: "The conversation could not be loaded" }, () =>
      this.tables.findConversation(userId, id),
    );
  }

  renameConversation(
    userId: string,
    id: string,
    title: string,
  ): Promise<ConversationRecord | null> {
    return this.inTransaction({ what: "The conversation could not be renamed" }, () => {
      const changes = this.tables.renameConversation(userId, id, checkTitle(title), this.time());
      return changes === 0 ? null : this.tables.findConversation(userId, id);
    });
  }

  deleteConversation(userId: string, id: string): Promise<boolean> {
    return this.inTransaction(
      { what: "The conversation could not be deleted" },
      () => this.tables.deleteConversation(userId, id) > 0,
    );
  }

  appendMessage(message: NewMessage): Promise<MessageRecord> {
    return this.inTransaction(saveMessage, () => {
      this.requireConversation(message.conversationId, saveMessage);
      const createdAt = this.time(message.createdAt);
      const record: MessageRecord = {
        id: message.id ?? this.randomId(),
        conversationId: message.conversationId,
        chatId: message.chatId,
        seq: this.tables.lastSeq(message.conversationId) + 1,
        role: message.role,
        parts: message.parts,
        status: message.status ?? "complete",
        createdAt,
        updatedAt: createdAt,
      };
      if (message.error !== undefined) record.error = message.error;
      if (message.fromApp !== undefined) record.fromApp = { ...message.fromApp };
      this.tables.insertMessage(record, message.nodeId);
      this.tables.touchConversation(record.conversationId, createdAt);
      return record;
    });
  }

  updateMessage(
    conversationId: string,
    messageId: string,
    changes: MessageChanges,
  ): Promise<MessageRecord> {
    return this.inTransaction(saveMessage, () => {
      const record = this.tables.findMessage(conversationId, messageId);
      if (record === undefined) throw messageMissing();
      if (isLateProgressSave(record.status, changes)) return record;
      applyMessageChanges(record, changes, this.time());
      this.tables.updateMessage(record);
      this.tables.touchConversation(conversationId, record.updatedAt);
      return record;
    });
  }

  listMessages(conversationId: string): Promise<MessageRecord[]> {
    return this.attempt({ what: "The messages could not be loaded" }, () =>
      this.tables.listMessages(conversationId),
    );
  }

  listMessagePage(
    conversationId: string,
    page: { before?: number; limit: number },
  ): Promise<MessagePage> {
    return this.attempt({ what: "The messages could not be loaded" }, () =>
      pageOf(
        this.tables.listMessagesBefore(conversationId, page.before ?? pastLastSeq, page.limit + 1),
        page.limit,
      ),
    );
  }

  saveCard(card: NewCard): Promise<CardRecord> {
    return this.inTransaction(saveCard, () => {
      this.requireConversation(card.conversationId, saveCard);
      const existing = this.tables.findCard(card.conversationId, card.instanceId);
      // Saving again (the result arrived, the card closed) keeps the first creation time.
      const record: CardRecord = {
        ...card,
        createdAt: this.time(card.createdAt ?? existing?.createdAt),
      };
      if (record.closedAt !== undefined) record.closedAt = this.time(record.closedAt);
      this.tables.upsertCard(record);
      this.tables.touchConversation(record.conversationId, this.time());
      return record;
    });
  }

  closeCard(conversationId: string, instanceId: string, closedAt?: number): Promise<boolean> {
    // The first close wins: closing twice keeps the original time.
    return this.inTransaction(
      { what: "The card could not be closed" },
      () => this.tables.closeCard(conversationId, instanceId, this.time(closedAt)) > 0,
    );
  }

  getCard(conversationId: string, instanceId: string): Promise<CardRecord | null> {
    return this.attempt(
      { what: "The card could not be loaded" },
      () => this.tables.findCard(conversationId, instanceId) ?? null,
    );
  }

  listCards(conversationId: string): Promise<CardRecord[]> {
    return this.attempt({ what: "The cards could not be loaded" }, () =>
      this.tables.listCards(conversationId),
    );
  }

  rememberApproval(approval: NewApproval): Promise<ApprovalRecord> {
    return this.inTransaction(rememberApproval, () => {
      checkApprovalScope(approval);
      this.requireConversation(approval.conversationId, rememberApproval);
      this.tables.insertApproval({ ...approval, createdAt: this.time(approval.createdAt) });
      const stored = this.tables.findApproval(approval);
      if (stored === undefined)
        throw new Error("The approval vanished inside its own transaction.");
      return stored;
    });
  }

  listApprovals(conversationId: string): Promise<ApprovalRecord[]> {
    return this.attempt({ what: "The approvals could not be loaded" }, () =>
      this.tables.listApprovals(conversationId),
    );
  }

  exportConversation(userId: string, id: string): Promise<ConversationDocument | null> {
    // One transaction, so the document is a consistent snapshot.
    return this.inReadTransaction({ what: "The conversation could not be exported" }, () => {
      const conversation = this.tables.findConversation(userId, id);
      if (conversation === null) return null;
      return buildConversationDocument(
        conversation,
        this.tables.listMessages(id),
        this.tables.listCards(id),
        this.tables.listApprovals(id),
        this.time(),
      );
    });
  }

  importConversation(userId: string, document: unknown): Promise<ConversationRecord> {
    const action: StoreAction = { what: "The conversation could not be imported" };
    let parsed: ConversationDocument;
    try {
      // Validate before touching the database: a bad document writes nothing.
      parsed = parseConversationDocument(document);
    } catch (error) {
      return Promise.reject(toStoreError(error, action));
    }
    return this.inTransaction(action, () => {
      const conversation: ConversationRecord = {
        id: this.randomId(),
        userId,
        title: parsed.conversation.title,
        createdAt: parsed.conversation.createdAt,
        updatedAt: this.time(),
        imported: true,
      };
      this.insertConversation(conversation);
      const messages = [...parsed.messages].sort((first, second) => first.seq - second.seq);
      messages.forEach((message, index) => {
        this.tables.insertMessage({
          ...message,
          conversationId: conversation.id,
          seq: index + 1,
          // No process is finishing a reply of an imported conversation.
          status: message.status === "streaming" ? "interrupted" : message.status,
        });
      });
      for (const card of parsed.cards) {
        this.tables.upsertCard({ ...card, conversationId: conversation.id });
      }
      // The file's approvals are not imported: anyone can write "allow for this conversation"
      // into a file, and only the person at this host may give that answer.
      return conversation;
    });
  }

  /** Inserts the conversation, creating its user row (named by its id) when missing. */
  private insertConversation(record: ConversationRecord): void {
    requireText(record.userId, "A user id");
    this.tables.insertUserIfMissing({
      id: record.userId,
      name: record.userId,
      createdAt: this.time(),
    });
    this.tables.insertConversation(record);
  }

  /** Throws `not_found` (with the action's wording) unless the conversation exists. */
  private requireConversation(conversationId: string, action: StoreAction): void {
    if (!this.tables.conversationExists(conversationId)) throw conversationMissing(action);
  }
}
