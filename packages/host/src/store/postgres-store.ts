import { parseConversationDocument } from "./conversation-export";
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
import { PostgresClusterStore, type PostgresStoreOptions } from "./postgres-cluster-store";
import { PostgresConnection } from "./postgres-connection";
import { postgresMessageWrites as writes } from "./postgres-message-writes";
import { exportConversationIn, importDocumentIn } from "./postgres-transfer";
import { migratePostgres } from "./postgres-migrations";
import { postgresTables as tables, type Queryable } from "./postgres-tables";
import { toPostgresStoreError } from "./postgres-errors";
import type { StoreAction } from "./store-error";

export type { PostgresStoreOptions } from "./postgres-cluster-store";
import {
  checkApprovalScope,
  checkTitle,
  conversationMissing,
  defaultConversationTitle,
  messageMissing,
  pageOf,
  pastLastSeq,
  rememberApprovalAction,
  requireText,
  saveCardAction,
  saveMessageAction,
} from "./store-rules";

/**
 * {@link HostStore} on Postgres through node-postgres, for several nodes sharing one database.
 * Every write is one transaction on a pooled connection, committed before its promise resolves;
 * appends to one conversation take its row lock, so two nodes never hand out the same `seq`.
 * When the server goes away calls fail with a retryable `storage_failed`, and the pool connects
 * again by itself once it is back: the store never needs reopening.
 */
export class PostgresStore extends PostgresClusterStore implements HostStore {
  private constructor(connection: PostgresConnection, options: PostgresStoreOptions) {
    super(connection, options);
  }

  /**
   * Connects to the database the URL names and migrates its schema (once, even when several nodes
   * start at the same moment).
   *
   * @param url - a `postgres://` or `postgresql://` connection string.
   * @param options - clock, id maker, pool size and timeouts.
   * @returns the open store.
   * @throws StoreError `storage_failed` when the database cannot be reached or its schema is newer.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const connection = new PostgresConnection(url, options);
    try {
      await migratePostgres(connection.pool);
    } catch (error) {
      await connection.end();
      throw toPostgresStoreError(error, {
        what: "The database could not be prepared",
        outcome: "the server cannot start",
      });
    }
    return new PostgresStore(connection, options);
  }

  ensureUser(id: string, name?: string): Promise<UserRecord> {
    return this.inTransaction({ what: "The user could not be saved" }, async (db) => {
      requireText(id, "A user id");
      await tables.insertUserIfMissing(db, { id, name: name ?? id, createdAt: this.time() });
      const existing = await tables.findUser(db, id);
      if (existing === undefined) throw new Error("The user vanished inside its own transaction.");
      if (name === undefined || name === existing.name) return existing;
      await tables.renameUser(db, id, name);
      return { ...existing, name };
    });
  }

  getUser(id: string): Promise<UserRecord | null> {
    return this.read(
      { what: "The user could not be loaded" },
      async (db) => (await tables.findUser(db, id)) ?? null,
    );
  }

  createConversation(
    userId: string,
    conversation: NewConversation = {},
  ): Promise<ConversationRecord> {
    return this.inTransaction({ what: "The conversation could not be created" }, async (db) => {
      const createdAt = this.time(conversation.createdAt);
      const record: ConversationRecord = {
        id: conversation.id ?? this.randomId(),
        userId,
        title: checkTitle(conversation.title ?? defaultConversationTitle),
        createdAt,
        updatedAt: createdAt,
        imported: false,
      };
      await this.insertConversation(db, record);
      return record;
    });
  }

  listConversations(userId: string): Promise<ConversationRecord[]> {
    return this.read({ what: "The conversations could not be loaded" }, (db) =>
      tables.listConversations(db, userId),
    );
  }

  getConversation(userId: string, id: string): Promise<ConversationRecord | null> {
    return this.read({ what: "The conversation could not be loaded" }, (db) =>
      tables.findConversation(db, userId, id),
    );
  }

  renameConversation(
    userId: string,
    id: string,
    title: string,
  ): Promise<ConversationRecord | null> {
    return this.inTransaction({ what: "The conversation could not be renamed" }, async (db) => {
      const checked = checkTitle(title);
      const changed = await tables.renameConversation(db, userId, id, checked, this.time());
      return changed === 0 ? null : tables.findConversation(db, userId, id);
    });
  }

  deleteConversation(userId: string, id: string): Promise<boolean> {
    return this.inTransaction(
      { what: "The conversation could not be deleted" },
      async (db) => (await tables.deleteConversation(db, userId, id)) > 0,
    );
  }

  async appendMessage(message: NewMessage): Promise<MessageRecord> {
    const createdAt = this.time(message.createdAt);
    const record: Omit<MessageRecord, "seq"> = {
      id: message.id ?? this.randomId(),
      conversationId: message.conversationId,
      chatId: message.chatId,
      role: message.role,
      parts: message.parts,
      status: message.status ?? "complete",
      createdAt,
      updatedAt: createdAt,
    };
    if (message.error !== undefined) record.error = message.error;
    if (message.fromApp !== undefined) record.fromApp = { ...message.fromApp };
    const seq = await this.write(saveMessageAction, (db) =>
      writes.append(db, record, message.nodeId),
    );
    if (seq === undefined) throw conversationMissing(saveMessageAction);
    const { createdAt: created, updatedAt, ...rest } = record;
    return { ...rest, seq, createdAt: created, updatedAt };
  }

  async updateMessage(
    conversationId: string,
    messageId: string,
    changes: MessageChanges,
  ): Promise<MessageRecord> {
    const updated = await this.write(saveMessageAction, (db) =>
      writes.update(db, conversationId, messageId, changes, this.time()),
    );
    if (updated === undefined) throw messageMissing();
    return updated;
  }

  listMessages(conversationId: string): Promise<MessageRecord[]> {
    return this.read({ what: "The messages could not be loaded" }, (db) =>
      tables.listMessages(db, conversationId),
    );
  }

  listMessagePage(
    conversationId: string,
    page: { before?: number; limit: number },
  ): Promise<MessagePage> {
    return this.read({ what: "The messages could not be loaded" }, async (db) =>
      pageOf(
        await tables.listMessagesBefore(
          db,
          conversationId,
          page.before ?? pastLastSeq,
          page.limit + 1,
        ),
        page.limit,
      ),
    );
  }

  saveCard(card: NewCard): Promise<CardRecord> {
    return this.inTransaction(saveCardAction, async (db) => {
      if (!(await tables.lockConversation(db, card.conversationId))) {
        throw conversationMissing(saveCardAction);
      }
      const existing = await tables.findCard(db, card.conversationId, card.instanceId);
      // Saving again (the result arrived, the card closed) keeps the first creation time.
      const record: CardRecord = {
        ...card,
        createdAt: this.time(card.createdAt ?? existing?.createdAt),
      };
      if (record.closedAt !== undefined) record.closedAt = this.time(record.closedAt);
      await tables.upsertCard(db, record);
      await tables.touchConversation(db, record.conversationId, this.time());
      return record;
    });
  }

  closeCard(conversationId: string, instanceId: string, closedAt?: number): Promise<boolean> {
    // The first close wins: closing twice keeps the original time.
    return this.inTransaction(
      { what: "The card could not be closed" },
      async (db) =>
        (await tables.closeCard(db, conversationId, instanceId, this.time(closedAt))) > 0,
    );
  }

  getCard(conversationId: string, instanceId: string): Promise<CardRecord | null> {
    return this.read(
      { what: "The card could not be loaded" },
      async (db) => (await tables.findCard(db, conversationId, instanceId)) ?? null,
    );
  }

  listCards(conversationId: string): Promise<CardRecord[]> {
    return this.read({ what: "The cards could not be loaded" }, (db) =>
      tables.listCards(db, conversationId),
    );
  }

  rememberApproval(approval: NewApproval): Promise<ApprovalRecord> {
    return this.inTransaction(rememberApprovalAction, async (db) => {
      checkApprovalScope(approval);
      if (!(await tables.lockConversation(db, approval.conversationId))) {
        throw conversationMissing(rememberApprovalAction);
      }
      await tables.insertApproval(db, { ...approval, createdAt: this.time(approval.createdAt) });
      const stored = await tables.findApproval(db, approval);
      if (stored === undefined)
        throw new Error("The approval vanished inside its own transaction.");
      return stored;
    });
  }

  listApprovals(conversationId: string): Promise<ApprovalRecord[]> {
    return this.read({ what: "The approvals could not be loaded" }, (db) =>
      tables.listApprovals(db, conversationId),
    );
  }

  exportConversation(userId: string, id: string): Promise<ConversationDocument | null> {
    // One transaction at REPEATABLE READ, so the document is a consistent snapshot.
    return this.inTransaction(
      { what: "The conversation could not be exported" },
      (db) => exportConversationIn(db, userId, id, this.time()),
      "REPEATABLE READ",
    );
  }

  importConversation(userId: string, document: unknown): Promise<ConversationRecord> {
    const action: StoreAction = { what: "The conversation could not be imported" };
    let parsed: ConversationDocument;
    try {
      // Validate before touching the database: a bad document writes nothing.
      parsed = parseConversationDocument(document);
    } catch (error) {
      return Promise.reject(toPostgresStoreError(error, action));
    }
    return this.inTransaction(action, async (db) => {
      const conversation: ConversationRecord = {
        id: this.randomId(),
        userId,
        title: parsed.conversation.title,
        createdAt: parsed.conversation.createdAt,
        updatedAt: this.time(),
        imported: true,
      };
      await this.insertConversation(db, conversation);
      await importDocumentIn(db, conversation.id, parsed);
      return conversation;
    });
  }

  /** Inserts the conversation, creating its user row (named by its id) when missing. */
  private async insertConversation(db: Queryable, record: ConversationRecord): Promise<void> {
    requireText(record.userId, "A user id");
    await tables.insertUserIfMissing(db, {
      id: record.userId,
      name: record.userId,
      createdAt: this.time(),
    });
    await tables.insertConversation(db, record);
  }
}
