import type Database from "better-sqlite3";
import type {
  ApprovalRecord,
  AuditRecord,
  CardRecord,
  ConversationRecord,
  MessageRecord,
  UserRecord,
} from "./host-store";
import {
  approvalFromRow,
  auditFromRow,
  cardFromRow,
  conversationFromRow,
  messageFromRow,
  messageMetaColumn,
  userFromRow,
  type ApprovalRow,
  type AuditRow,
  type CardRow,
  type ConversationRow,
  type MessageRow,
  type UserRow,
} from "./sqlite-rows";

/** The key of a remembered approval (an approval without its time). */
export type ApprovalKey = Omit<ApprovalRecord, "createdAt">;

/**
 * The SQL of the store, one synchronous method per statement, with prepared statements cached.
 * It knows tables and rows only: transactions, validation, ids, clocks and error mapping belong
 * to `SqliteStore`, which calls these methods inside its transactions.
 */
export class SqliteTables {
  private readonly database: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  /** @param database - the open connection, owned by the caller. */
  constructor(database: Database.Database) {
    this.database = database;
  }

  /** Forgets the prepared statements (before the connection closes). */
  clear(): void {
    this.statements.clear();
  }

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

  /** Inserts a message. */
  insertMessage(record: MessageRecord): void {
    this.run(
      `INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, error,
           meta, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

  /** Marks every `streaming` message `interrupted`; returns how many changed. */
  markStreamingInterrupted(at: number): number {
    return this.run(
      "UPDATE messages SET status = 'interrupted', updated_at = ? WHERE status = 'streaming'",
      at,
    );
  }

  // ----- cards -----

  /** The card, or undefined. */
  findCard(conversationId: string, instanceId: string): CardRecord | undefined {
    const row = this.get<CardRow>(
      "SELECT * FROM cards WHERE conversation_id = ? AND instance_id = ?",
      conversationId,
      instanceId,
    );
    return row === undefined ? undefined : cardFromRow(row);
  }

  /** The conversation's cards in the order they were created. */
  listCards(conversationId: string): CardRecord[] {
    return this.all<CardRow>(
      "SELECT * FROM cards WHERE conversation_id = ? ORDER BY created_at, rowid",
      conversationId,
    ).map(cardFromRow);
  }

  /** Inserts the card, or replaces every field of the one with the same key (keeping its rowid). */
  upsertCard(record: CardRecord): void {
    this.run(
      `INSERT INTO cards (conversation_id, instance_id, chat_id, kind, source, tool, arguments,
           result, cancelled, title, checked, message_id, created_at, closed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (conversation_id, instance_id) DO UPDATE SET
           chat_id = excluded.chat_id, kind = excluded.kind, source = excluded.source,
           tool = excluded.tool, arguments = excluded.arguments, result = excluded.result,
           cancelled = excluded.cancelled, title = excluded.title, checked = excluded.checked,
           message_id = excluded.message_id, created_at = excluded.created_at,
           closed_at = excluded.closed_at`,
      record.conversationId,
      record.instanceId,
      record.chatId,
      record.kind,
      record.source,
      record.tool,
      JSON.stringify(record.arguments),
      record.result === null ? null : JSON.stringify(record.result),
      record.cancelled ?? null,
      record.title,
      record.checked ? 1 : 0,
      record.messageId ?? null,
      record.createdAt,
      record.closedAt ?? null,
    );
  }

  /** Sets the card's `closed_at` unless it is already set; returns the rows matched (0 or 1). */
  closeCard(conversationId: string, instanceId: string, at: number): number {
    return this.run(
      `UPDATE cards SET closed_at = coalesce(closed_at, ?)
         WHERE conversation_id = ? AND instance_id = ?`,
      at,
      conversationId,
      instanceId,
    );
  }

  // ----- approvals -----

  /** Inserts the approval; a second one with the same key is ignored (unique index). */
  insertApproval(record: ApprovalRecord): void {
    this.run(
      `INSERT OR IGNORE INTO approvals (conversation_id, scope, instance_id, source, tool, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      record.conversationId,
      record.scope,
      record.instanceId,
      record.source,
      record.tool,
      record.createdAt,
    );
  }

  /** The approval with that key, or undefined. */
  findApproval(key: ApprovalKey): ApprovalRecord | undefined {
    const row = this.get<ApprovalRow>(
      `SELECT * FROM approvals WHERE conversation_id = ? AND scope = ?
         AND ifnull(instance_id, '') = ? AND source = ? AND tool = ?`,
      key.conversationId,
      key.scope,
      key.instanceId ?? "",
      key.source,
      key.tool,
    );
    return row === undefined ? undefined : approvalFromRow(row);
  }

  /** The conversation's approvals, oldest first. */
  listApprovals(conversationId: string): ApprovalRecord[] {
    return this.all<ApprovalRow>(
      "SELECT * FROM approvals WHERE conversation_id = ? ORDER BY created_at, rowid",
      conversationId,
    ).map(approvalFromRow);
  }

  // ----- audit -----

  /** Inserts one audited page call. */
  insertAudit(record: AuditRecord): void {
    this.run(
      `INSERT INTO audit (id, at, user_id, session_id, conversation_id, instance_id, source, tool,
           verdict, reason, duration_ms, approval)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      record.id,
      record.at,
      record.userId,
      record.sessionId,
      record.conversationId,
      record.instanceId,
      record.source,
      record.tool,
      record.verdict,
      record.reason ?? null,
      record.durationMs,
      record.approval === undefined ? null : JSON.stringify(record.approval),
    );
  }

  /** Audited calls, newest first, filtered by whichever of conversation and user are given. */
  listAudit(filter: { conversationId?: string; userId?: string }, limit: number): AuditRecord[] {
    const conditions: string[] = [];
    const values: unknown[] = [];
    if (filter.conversationId !== undefined) {
      conditions.push("conversation_id = ?");
      values.push(filter.conversationId);
    }
    if (filter.userId !== undefined) {
      conditions.push("user_id = ?");
      values.push(filter.userId);
    }
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    return this.all<AuditRow>(
      `SELECT * FROM audit ${where} ORDER BY at DESC, rowid DESC LIMIT ?`,
      ...values,
      limit,
    ).map(auditFromRow);
  }

  // ----- statements -----

  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.database.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  private get<Row>(sql: string, ...values: unknown[]): Row | undefined {
    return this.statement(sql).get(...values) as Row | undefined;
  }

  private all<Row>(sql: string, ...values: unknown[]): Row[] {
    return this.statement(sql).all(...values) as Row[];
  }

  /** Runs a write statement; returns the number of rows it changed. */
  private run(sql: string, ...values: unknown[]): number {
    return this.statement(sql).run(...values).changes;
  }
}
