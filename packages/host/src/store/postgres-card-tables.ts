import type { ApprovalRecord, AuditRecord, CardRecord } from "./host-store";
import { all, one, type Queryable } from "./postgres-query";
import {
  approvalFromRow,
  auditFromRow,
  cardFromRow,
  type ApprovalRow,
  type AuditRow,
  type CardRow,
} from "./sqlite-rows";
import { auditInsertSql, auditValues, upsertCardSql, upsertCardValues } from "./store-rules";
import type { ApprovalKey } from "./sqlite-card-tables";

/** The INSERT of one audited page call, in Postgres's placeholders. */
const insertAuditSql = auditInsertSql((position) => `$${position}`);

/** The Postgres statements of cards, remembered approvals and the audit (see `postgresTables`). */
export const postgresCardTables = {
  async findCard(
    db: Queryable,
    conversationId: string,
    instanceId: string,
  ): Promise<CardRecord | undefined> {
    const row = await one<CardRow>(
      db,
      "SELECT * FROM cards WHERE conversation_id = $1 AND instance_id = $2",
      [conversationId, instanceId],
    );
    return row === undefined ? undefined : cardFromRow(row);
  },

  async listCards(db: Queryable, conversationId: string): Promise<CardRecord[]> {
    return (
      await all<CardRow>(
        db,
        "SELECT * FROM cards WHERE conversation_id = $1 ORDER BY created_at, position",
        [conversationId],
      )
    ).map(cardFromRow);
  },

  /** Inserts the card, or replaces every field of the one with the same key (keeping its place). */
  async upsertCard(db: Queryable, record: CardRecord): Promise<void> {
    await db.query(
      upsertCardSql((position) => `$${position}`),
      upsertCardValues(record, (checked) => checked),
    );
  },

  async closeCard(
    db: Queryable,
    conversationId: string,
    instanceId: string,
    at: number,
  ): Promise<number> {
    const result = await db.query(
      `UPDATE cards SET closed_at = coalesce(closed_at, $1)
         WHERE conversation_id = $2 AND instance_id = $3`,
      [at, conversationId, instanceId],
    );
    return result.rowCount ?? 0;
  },

  async insertApproval(db: Queryable, record: ApprovalRecord): Promise<void> {
    await db.query(
      `INSERT INTO approvals (conversation_id, scope, instance_id, source, tool, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [
        record.conversationId,
        record.scope,
        record.instanceId,
        record.source,
        record.tool,
        record.createdAt,
      ],
    );
  },

  async findApproval(db: Queryable, key: ApprovalKey): Promise<ApprovalRecord | undefined> {
    const row = await one<ApprovalRow>(
      db,
      `SELECT * FROM approvals WHERE conversation_id = $1 AND scope = $2
         AND coalesce(instance_id, '') = $3 AND source = $4 AND tool = $5`,
      [key.conversationId, key.scope, key.instanceId ?? "", key.source, key.tool],
    );
    return row === undefined ? undefined : approvalFromRow(row);
  },

  async listApprovals(db: Queryable, conversationId: string): Promise<ApprovalRecord[]> {
    return (
      await all<ApprovalRow>(
        db,
        "SELECT * FROM approvals WHERE conversation_id = $1 ORDER BY created_at, position",
        [conversationId],
      )
    ).map(approvalFromRow);
  },

  async insertAudit(db: Queryable, record: AuditRecord): Promise<void> {
    await db.query(insertAuditSql, auditValues(record));
  },

  async listAudit(
    db: Queryable,
    filter: { conversationId?: string; userId?: string },
    limit: number,
  ): Promise<AuditRecord[]> {
    const conditions: string[] = [];
    const values: unknown[] = [];
    if (filter.conversationId !== undefined) {
      values.push(filter.conversationId);
      conditions.push(`conversation_id = $${values.length}`);
    }
    if (filter.userId !== undefined) {
      values.push(filter.userId);
      conditions.push(`user_id = $${values.length}`);
    }
    values.push(limit);
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    return (
      await all<AuditRow>(
        db,
        `SELECT * FROM audit ${where} ORDER BY at DESC, position DESC LIMIT $${values.length}`,
        values,
      )
    ).map(auditFromRow);
  },
};
