import type { MessageChanges, MessageRecord } from "./host-store";
import { one, type Queryable } from "./postgres-query";
import { messageFromRow, messageMetaColumn, type MessageRow } from "./sqlite-rows";

/**
 * The two writes a streaming reply makes most, each one statement (so one round trip, and one
 * transaction of its own, committed when the statement returns).
 */
export const postgresMessageWrites = {
  /**
   * Appends the message with the conversation's next `seq` and moves the conversation's
   * `updated_at`. The UPDATE of the conversation's `last_seq` takes its row lock and reads the
   * latest committed value even after waiting, so appends from several nodes never share a seq.
   *
   * @returns the seq given, or undefined when the conversation does not exist.
   */
  async append(
    db: Queryable,
    record: Omit<MessageRecord, "seq">,
    nodeId: string | undefined,
  ): Promise<number | undefined> {
    const row = await one<{ seq: number }>(
      db,
      `WITH conversation AS (
         UPDATE conversations
           SET last_seq = last_seq + 1, updated_at = greatest(updated_at, $9::bigint)
           WHERE id = $1::text
           RETURNING last_seq
       )
       INSERT INTO messages (conversation_id, id, chat_id, seq, role, parts, status, error, meta,
           created_at, updated_at, node_id)
         SELECT $1::text, $2::text, $3::text, conversation.last_seq, $4::text, $5::text, $6::text,
           $7::text, $8::text, $9::bigint, $10::bigint, $11::text
         FROM conversation
         RETURNING seq`,
      [
        record.conversationId,
        record.id,
        record.chatId,
        record.role,
        JSON.stringify(record.parts),
        record.status,
        record.error ?? null,
        messageMetaColumn({ ...record, seq: 0 }),
        record.createdAt,
        record.updatedAt,
        nodeId ?? null,
      ],
    );
    return row?.seq;
  },

  /**
   * Applies the changes to the stored message and moves the conversation's `updated_at`. Fields
   * left undefined keep their stored value; `null` removes an optional one. The reply's facts
   * (`retryable`, `usage`) live in the `meta` JSON, changed key by key. A change with parts and no
   * status to a message that is no longer `streaming` (a late progress save) changes nothing.
   *
   * @returns the message as stored now, or undefined when there is no such message.
   */
  async update(
    db: Queryable,
    conversationId: string,
    messageId: string,
    changes: MessageChanges,
    at: number,
  ): Promise<MessageRecord | undefined> {
    const removed: string[] = [];
    const set: Record<string, unknown> = {};
    for (const key of ["retryable", "usage"] as const) {
      if (changes[key] === null) removed.push(key);
      else if (changes[key] !== undefined) set[key] = changes[key];
    }
    const metaChanges = removed.length > 0 || Object.keys(set).length > 0;
    const row = await one<MessageRow>(
      db,
      `WITH changed AS (
         UPDATE messages SET
           parts = coalesce($3::text, parts),
           status = coalesce($4::text, status),
           error = CASE WHEN $5::boolean THEN $6::text ELSE error END,
           meta = CASE WHEN $7::boolean
             THEN nullif(((coalesce(meta, '{}')::jsonb - $8::text[]) || $9::jsonb)::text, '{}')
             ELSE meta END,
           updated_at = $10::bigint
         WHERE conversation_id = $1::text AND id = $2::text
           AND NOT ($11::boolean AND status <> 'streaming')
         RETURNING *
       ), touched AS (
         UPDATE conversations SET updated_at = greatest(updated_at, $10::bigint)
           WHERE id = $1::text AND EXISTS (SELECT 1 FROM changed)
       )
       SELECT * FROM changed
       UNION ALL
       SELECT * FROM messages
         WHERE conversation_id = $1::text AND id = $2::text AND NOT EXISTS (SELECT 1 FROM changed)`,
      [
        conversationId,
        messageId,
        changes.parts === undefined ? null : JSON.stringify(changes.parts),
        changes.status ?? null,
        changes.error !== undefined,
        changes.error ?? null,
        metaChanges,
        removed,
        JSON.stringify(set),
        at,
        // A late progress save (parts, no status) leaves a finished message as it is.
        changes.parts !== undefined && changes.status === undefined,
      ],
    );
    return row === undefined ? undefined : messageFromRow(row);
  },
};
