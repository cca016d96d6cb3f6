import type { ApprovalRecord, AuditRecord, CardRecord } from "./host-store";
import {
  approvalFromRow,
  auditFromRow,
  cardFromRow,
  type ApprovalRow,
  type AuditRow,
  type CardRow,
} from "./sqlite-rows";
import { auditInsertSql, auditValues, upsertCardSql, upsertCardValues } from "./store-rules";
import { SqliteStatements } from "./sqlite-statements";

/**
 * The INSERT of one audited page call in SQLite's placeholders, with `auditValues` as its values;
 * the store's own connection and its audit writer thread (`SqliteAuditWriter`) both run it.
 */
export const insertAuditSql = auditInsertSql(() => "?");

/** The key of a remembered approval (an approval without its time). */
export type ApprovalKey = Omit<ApprovalRecord, "createdAt">;

/**
 * The SQL of cards, remembered approvals and the audit, one synchronous method per statement.
 * Part of `SqliteTables`, which adds users, conversations and messages.
 */
export class SqliteCardTables extends SqliteStatements {
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
      upsertCardSql(() => "?"),
      ...upsertCardValues(record, (checked) => (checked ? 1 : 0)),
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
    this.run(insertAuditSql, ...auditValues(record));
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
}
