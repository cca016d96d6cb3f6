import type { ConversationRecord, MessageRecord, UserRecord } from "./host-store";
import {
  conversationFromRow,
  messageFromRow,
  messageMetaColumn,
  userFromRow,
  type ConversationRow,
  type MessageRow,
  type UserRow,
} from "./sqlite-rows";
import { postgresCardTables } from "./postgres-card-tables";
import { all, one, type Queryable } from "./postgres-query";

export type { Queryable } from "./postgres-query";

/**
 * The SQL of the store on Postgres, one method per statement, on the connection it is given.
 * Like `SqliteTables` it knows tables and rows only; `PostgresStore` opens the transactions.
 */
export const postgresTables = {
  ...postgresCardTables,

  async findUser(db: Queryable, id: string): Promise<UserRecord | undefined> {
    const row = await one<UserRow>(db, "SELECT * FROM users WHERE id = $1", [id]);
    return row === undefined ? undefined : userFromRow(row);
  },

  async insertUserIfMissing(db: Queryable, user: UserRecord): Promise<void> {
    await db.query(
      "INSERT INTO users (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
      [user.id, user.name, user.createdAt],
    );
  },

  async renameUser(db: Queryable, id: string, name: string): Promise<void> {
    await db.query("UPDATE users SET name = $1 WHERE id = $2", [name, id]);
  },

  async findConversation(
    db: Queryable,
    userId: string,
    id: string,
  ): Promise<ConversationRecord | null> {
    const row = await one<ConversationRow>(
      db,
      "SELECT * FROM conversations WHERE id = $1 AND user_id = $2",
      [id, userId],
    );
    return row === undefined ? null : conversationFromRow(row);
  },

  /** Locks the conversation's row until the transaction ends; false when it does not exist. */
  async lockConversation(db: Queryable, id: string): Promise<boolean> {
    const result = await db.query("SELECT id FROM conversations WHERE id = $1 FOR UPDATE", [id]);
    return (result.rowCount ?? 0) > 0;
  },

  async listConversations(db: Queryable, userId: string): Promise<ConversationRecord[]> {
    return (
      await all<ConversationRow>(
        db,
        "SELECT * FROM conversations WHERE user_id = $1 ORDER BY updated_at DESC, position DESC",
        [userId],
      )
    ).map(conversationFromRow);
  },

  async insertConversation(db: Queryable, record: ConversationRecord): Promise<void> {
    await db.query(
      `INSERT INTO conversations (id, user_id, title, created_at, updated_at, imported)
         VALUES ($1, $2, $3, $4, $5, $6)`,
      [record.id, record.userId, record.title, record.createdAt, record.updatedAt, record.imported],
    );
  },

  async renameConversation(
    db: Queryable,
    userId: string,
    id: string,
    title: string,
    at: number,
  ): Promise<number> {
    const result = await db.query(
      "UPDATE conversations SET title = $1, updated_at = $2 WHERE id = $3 AND user_id = $4",
      [title, at, id, userId],
    );
    return result.rowCount ?? 0;
  },

  async deleteConversation(db: Queryable, userId: string, id: string): Promise<number> {
    const result = await db.query("DELETE FROM conversations WHERE id = $1 AND user_id = $2", [
      id,
      userId,
    ]);
    return result.rowCount ?? 0;
  },

  async touchConversation(db: Queryable, id: string, at: number): Promise<void> {
    await db.query("UPDATE conversations SET updated_at = greatest(updated_at, $1) WHERE id = $2", [
      at,
      id,
    ]);
  },

  async listMessages(db: Queryable, conversationId: string): Promise<MessageRecord[]> {
    return (
      await all<MessageRow>(db, "SELECT * FROM messages WHERE conversation_id = $1 ORDER BY seq", [
        conversationId,
      ])
    ).map(messageFromRow);
  },

  /** Up to `limit` messages whose `seq` is below `before`, the latest first. */
  async listMessagesBefore(
    db: Queryable,
    conversationId: string,
    before: number,
    limit: number,
  ): Promise<MessageRecord[]> {
    return (
      await all<MessageRow>(
        db,
        "SELECT * FROM messages WHERE conversation_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
        [conversationId, before, limit],
      )
    ).map(messageFromRow);
  },

  /** Sets the conversation's highest seq given out (after an import wrote its messages). */
  async setLastSeq(db: Queryable, id: string, seq: number): Promise<void> {
    await db.query("UPDATE conversations SET last_seq = $1 WHERE id = $2", [seq, id]);
  },

  /** Inserts a message with the seq it is given (an import's; appends use `postgresMessageWrites`). */
  async insertMessage(db: Queryable, record: MessageRecord, nodeId?: string): Promise<void> {
    await db.query(
      `INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, error,
           meta, created_at, updated_at, node_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        record.conversationId,
        record.id,
        record.chatId,
        record.seq,
        record.role,
        JSON.stringify(record.parts),
        record.status,
        record.error ?? null,
        messageMetaColumn(record),
        record.createdAt,
        record.updatedAt,
        nodeId ?? null,
      ],
    );
  },
};
