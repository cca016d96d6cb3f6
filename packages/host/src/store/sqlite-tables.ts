import type { ConversationRecord, MessageRecord, UserRecord } from "./host-store";
import { SqliteCardTables } from "./sqlite-card-tables";
import {
  conversationFromRow,
  messageFromRow,
  messageMetaColumn,
  userFromRow,
  type ConversationRow,
  type MessageRow,
  type UserRow,
} from "./sqlite-rows";

/**
 * The SQL of the store, one synchronous method per statement, with prepared statements cached.
 * It knows tables and rows only: transactions, validation, ids, clocks and error mapping belong
 * to `SqliteStore`, which calls these methods inside its transactions. Cards, approvals and the
 * audit are in `SqliteCardTables` (`sqlite-card-tables.ts`), the statement cache in
 * `SqliteStatements` (`sqlite-statements.ts`).
 */
export class SqliteTables extends SqliteCardTables {
  // ----- users -----

  /** The user, or undefined. */
  findUser(id: string): UserRecord | undefined {
    const row = this.get<UserRow>("SELECT * FROM users WHERE id = ?", id);
    return row === undefined ? undefined : userFromRow(row);
  }

  /** Inserts the user unless one with that id exists. */
  insertUserIfMissing(user: UserRecord): void {
    this.run(
      "INSERT OR IGNORE INTO users (id, name, created_at) VALUES (?, ?, ?)",
      user.id,
      user.name,
      user.createdAt,
    );
  }

  /** Renames the user. */
  renameUser(id: string, name: string): void {
    this.run("UPDATE users SET name = ? WHERE id = ?", name, id);
  }

  // ----- conversations -----

  /** The conversation if it belongs to the user, or null. */
  findConversation(userId: string, id: string): ConversationRecord | null {
    const row = this.get<ConversationRow>(
      "SELECT * FROM conversations WHERE id = ? AND user_id = ?",
      id,
      userId,
    );
    return row === undefined ? null : conversationFromRow(row);
  }

  /** True when a conversation with that id exists (whoever owns it). */
  conversationExists(id: string): boolean {
    return this.get<{ id: string }>("SELECT id FROM conversations WHERE id = ?", id) !== undefined;
  }

  /** The user's conversations, most recently updated first. */
  listConversations(userId: string): ConversationRecord[] {
    return this.all<ConversationRow>(
      "SELECT * FROM conversations WHERE user_id = ? ORDER BY updated_at DESC, rowid DESC",
      userId,
    ).map(conversationFromRow);
  }

  /** Inserts a conversation (its user row must exist). */
  insertConversation(record: ConversationRecord): void {
    this.run(
      `INSERT INTO conversations (id, user_id, title, created_at, updated_at, imported)
         VALUES (?, ?, ?, ?, ?, ?)`,
      record.id,
      record.userId,
      record.title,
      record.createdAt,
      record.updatedAt,
      record.imported ? 1 : 0,
    );
  }

  /** Renames the user's conversation; returns the number of rows changed (0 or 1). */
  renameConversation(userId: string, id: string, title: string, at: number): number {
    return this.run(
      "UPDATE conversations SET title = ?, updated_at = ? WHERE id = ? AND user_id = ?",
      title,
      at,
      id,
      userId,
    );
  }

  /** Deletes the user's conversation; its messages, cards and approvals go with it (CASCADE). */
  deleteConversation(userId: string, id: string): number {
    return this.run("DELETE FROM conversations WHERE id = ? AND user_id = ?", id, userId);
  }

  /** Moves the conversation's `updated_at` forward to `at` (never back). */
  touchConversation(id: string, at: number): void {
    this.run("UPDATE conversations SET updated_at = max(updated_at, ?) WHERE id = ?", at, id);
  }

  // ----- messages -----

  /** The message, or undefined. */
  findMessage(conversationId: string, id: string): MessageRecord | undefined {
    const row = this.get<MessageRow>(
      "SELECT * FROM messages WHERE conversation_id = ? AND id = ?",
      conversationId,
      id,
    );
    return row === undefined ? undefined : messageFromRow(row);
  }

  /** The highest `seq` of the conversation, 0 when it has no message. */
  lastSeq(conversationId: string): number {
    const row = this.get<{ seq: number | null }>(
      "SELECT max(seq) AS seq FROM messages WHERE conversation_id = ?",
      conversationId,
    );
    return row?.seq ?? 0;
  }

  /** The conversation's messages in `seq` order. */
  listMessages(conversationId: string): MessageRecord[] {
    return this.all<MessageRow>(
      "SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq",
      conversationId,
    ).map(messageFromRow);
  }

  /** Up to `limit` messages whose `seq` is below `before`, the latest first. */
  listMessagesBefore(conversationId: string, before: number, limit: number): MessageRecord[] {
    return this.all<MessageRow>(
      "SELECT * FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
      conversationId,
      before,
      limit,
    ).map(messageFromRow);
  }

  /** Inserts a message, with the node streaming it when one is named. */
  insertMessage(record: MessageRecord, nodeId?: string): void {
    this.run(
      `INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, error,
           meta, created_at, updated_at, node_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
  }

  /** Writes a message's parts, status, error and `updated_at`. */
  updateMessage(record: MessageRecord): void {
    this.run(
      `UPDATE messages SET parts = ?, status = ?, error = ?, meta = ?, updated_at = ?
         WHERE conversation_id = ? AND id = ?`,
      JSON.stringify(record.parts),
      record.status,
      record.error ?? null,
      messageMetaColumn(record),
      record.updatedAt,
      record.conversationId,
      record.id,
    );
  }
}
