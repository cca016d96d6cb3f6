import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { buildConversationDocument, parseConversationDocument } from "./conversation-export";
import type {
  ApprovalRecord,
  AuditQuery,
  AuditRecord,
  CardRecord,
  ConversationDocument,
  ConversationRecord,
  HostStore,
  MessageChanges,
  MessageRecord,
  NewApproval,
  NewAudit,
  NewCard,
  NewConversation,
  NewMessage,
  UserRecord,
} from "./host-store";
import { migrate } from "./migrations";
import { SqliteTables } from "./sqlite-tables";
import { StoreError, toStoreError, type StoreAction } from "./store-error";

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** The clock, in ms since the epoch (tests inject one). Default `Date.now`. */
  now?: () => number;
  /** Makes ids that the caller did not give. Default `crypto.randomUUID`. */
  randomId?: () => string;
  /**
   * How long a write waits for another connection's lock before failing with `storage_busy`, in
   * ms. better-sqlite3 waits synchronously, blocking the event loop, so keep it short. Default 1000.
   */
  busyTimeoutMs?: number;
}

const defaultTitle = "New conversation";
const maximumTitleLength = 1_000;
const defaultAuditLimit = 100;
const maximumAuditLimit = 10_000;

const saveMessage: StoreAction = {
  what: "The message could not be saved",
  outcome: "nothing was sent",
};
const saveCard: StoreAction = {
  what: "The card could not be saved",
  outcome: "it will not come back with the conversation",
};
const rememberApproval: StoreAction = {
  what: "The approval could not be remembered",
  outcome: "you will be asked again",
};

/**
 * {@link HostStore} on SQLite through better-sqlite3. better-sqlite3 is synchronous, so each
 * write's transaction has committed before the returned promise exists.
 *
 * The connection is set up with WAL, `foreign_keys=ON`, `synchronous=FULL` (a committed write
 * survives a power cut, which "never acknowledge what is not yet stored" needs) and a
 * `busy_timeout`; the schema is migrated forward on construction.
 */
export class SqliteStore implements HostStore {
  private readonly database: Database.Database;
  private readonly tables: SqliteTables;
  private readonly now: () => number;
  private readonly randomId: () => string;

  /**
   * Takes ownership of an open connection (`openStore` is the usual way in; tests pass their own
   * connection to inject faults).
   *
   * @param database - an open better-sqlite3 connection; closed by {@link SqliteStore.close}.
   * @param options - clock, id maker, busy timeout.
   * @throws StoreError `storage_failed` when the file cannot be set up or its schema is newer.
   */
  constructor(database: Database.Database, options: SqliteStoreOptions = {}) {
    this.database = database;
    this.tables = new SqliteTables(database);
    this.now = options.now ?? Date.now;
    this.randomId = options.randomId ?? randomUUID;
    const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 1_000));
    try {
      database.pragma("journal_mode = WAL");
      database.pragma("foreign_keys = ON");
      database.pragma("synchronous = FULL");
      database.pragma(`busy_timeout = ${busyTimeoutMs}`);
      migrate(database);
    } catch (error) {
      throw toStoreError(error, {
        what: "The data file could not be prepared",
        outcome: "the server cannot start",
      });
    }
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
        title: checkTitle(conversation.title ?? defaultTitle),
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
      this.tables.insertMessage(record);
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
      if (record === undefined) {
        throw new StoreError(
          "not_found",
          `${saveMessage.what} (it no longer exists in this conversation); ${saveMessage.outcome}. Reload the conversation.`,
        );
      }
      if (changes.parts !== undefined) record.parts = changes.parts;
      if (changes.status !== undefined) record.status = changes.status;
      if (changes.error === null) delete record.error;
      else if (changes.error !== undefined) record.error = changes.error;
      if (changes.retryable === null) delete record.retryable;
      else if (changes.retryable !== undefined) record.retryable = changes.retryable;
      if (changes.usage === null) delete record.usage;
      else if (changes.usage !== undefined) record.usage = changes.usage;
      record.updatedAt = this.time();
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

  markInterruptedReplies(): Promise<number> {
    return this.inTransaction({ what: "Interrupted replies could not be marked" }, () =>
      this.tables.markStreamingInterrupted(this.time()),
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
      if ((approval.scope === "card") !== (approval.instanceId !== null)) {
        throw new StoreError(
          "invalid_record",
          'An approval of scope "card" names its card, and one of scope "conversation" names none; fix the caller.',
        );
      }
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

  appendAudit(entry: NewAudit): Promise<AuditRecord> {
    return this.inTransaction({ what: "The audit entry could not be saved" }, () => {
      const record: AuditRecord = {
        ...entry,
        id: entry.id ?? this.randomId(),
        at: this.time(entry.at),
      };
      this.tables.insertAudit(record);
      return record;
    });
  }

  appendAudits(entries: readonly NewAudit[]): Promise<AuditRecord[]> {
    return this.inTransaction({ what: "The audit entries could not be saved" }, () =>
      entries.map((entry) => {
        const record: AuditRecord = {
          ...entry,
          id: entry.id ?? this.randomId(),
          at: this.time(entry.at),
        };
        this.tables.insertAudit(record);
        return record;
      }),
    );
  }

  listAudit(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.attempt({ what: "The audit could not be loaded" }, () => {
      const limit = query.limit ?? defaultAuditLimit;
      if (!Number.isInteger(limit) || limit < 1 || limit > maximumAuditLimit) {
        throw new StoreError(
          "invalid_record",
          `The audit limit must be a whole number from 1 to ${maximumAuditLimit}.`,
        );
      }
      const filter: { conversationId?: string; userId?: string } = {};
      if (query.conversationId !== undefined) filter.conversationId = query.conversationId;
      if (query.userId !== undefined) filter.userId = query.userId;
      return this.tables.listAudit(filter, limit);
    });
  }

  exportConversation(userId: string, id: string): Promise<ConversationDocument | null> {
    // One transaction, so the document is a consistent snapshot.
    return this.inTransaction({ what: "The conversation could not be exported" }, () => {
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
      // into a file, and only the person at this host may give that answer (issue 9, item 13).
      return conversation;
    });
  }

  close(): Promise<void> {
    if (this.database.open) {
      this.tables.clear();
      this.database.close();
    }
    return Promise.resolve();
  }

  /** Runs `body` in one transaction, committed before the promise resolves. */
  private inTransaction<T>(action: StoreAction, body: () => T): Promise<T> {
    return this.attempt(action, () => this.database.transaction(body)());
  }

  /** Runs `body`, turning any failure into a rejected {@link StoreError}. */
  private attempt<T>(action: StoreAction, body: () => T): Promise<T> {
    try {
      if (!this.database.open) {
        throw new StoreError(
          "closed",
          `${action.what} (the store is closed); ${action.outcome ?? "nothing was changed"}. The server is shutting down; try again after it restarts.`,
        );
      }
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(toStoreError(error, action));
    }
  }

  /** A time for an INTEGER column: the given one (rounded) or the clock's. */
  private time(given?: number): number {
    return Math.round(given ?? this.now());
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
    if (!this.tables.conversationExists(conversationId)) {
      throw new StoreError(
        "not_found",
        `${action.what} (the conversation no longer exists); ${action.outcome ?? "nothing was changed"}. Open another conversation.`,
      );
    }
  }
}

/** Throws `invalid_record` unless `value` is a non-empty string. */
function requireText(value: string, what: string): void {
  if (typeof value !== "string" || value.length === 0) {
    throw new StoreError("invalid_record", `${what} must be a non-empty string; fix the caller.`);
  }
}

/** The trimmed title; throws `invalid_record` when it is empty or too long. */
function checkTitle(title: string): string {
  const trimmed = typeof title === "string" ? title.trim() : "";
  if (trimmed.length === 0 || trimmed.length > maximumTitleLength) {
    throw new StoreError(
      "invalid_record",
      `A conversation title must have 1 to ${maximumTitleLength} characters; choose another title.`,
    );
  }
  return trimmed;
}
