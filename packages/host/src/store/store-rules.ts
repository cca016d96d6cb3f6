/**
 * The rules every store applies before it writes, and the wording of its common failures, shared
 * by the SQLite and the Postgres store so both keep one contract.
 */
import type {
  AuditRecord,
  CardRecord,
  MessageChanges,
  MessagePage,
  MessageRecord,
  NewApproval,
} from "./host-store";
import { StoreError, type StoreAction } from "./store-error";

/** The title a conversation gets when none is given. */
export const defaultConversationTitle = "New conversation";
/** The longest conversation title, in characters. */
const maximumTitleLength = 1_000;
/** How many audit records {@link HostStore.listAudit} returns when no limit is given. */
export const defaultAuditLimit = 100;
/** The largest audit limit accepted. */
const maximumAuditLimit = 10_000;

/** Saving a message (append or update). */
export const saveMessageAction: StoreAction = {
  what: "The message could not be saved",
  outcome: "nothing was sent",
};
/** Saving a card's descriptor. */
export const saveCardAction: StoreAction = {
  what: "The card could not be saved",
  outcome: "it will not come back with the conversation",
};
/** Remembering an approval. */
export const rememberApprovalAction: StoreAction = {
  what: "The approval could not be remembered",
  outcome: "you will be asked again",
};

/** Throws `invalid_record` unless `value` is a non-empty string. */
export function requireText(value: string, what: string): void {
  if (typeof value !== "string" || value.length === 0) {
    throw new StoreError("invalid_record", `${what} must be a non-empty string; fix the caller.`);
  }
}

/** The trimmed title; throws `invalid_record` when it is empty or too long. */
export function checkTitle(title: string): string {
  const trimmed = typeof title === "string" ? title.trim() : "";
  if (trimmed.length === 0 || trimmed.length > maximumTitleLength) {
    throw new StoreError(
      "invalid_record",
      `A conversation title must have 1 to ${maximumTitleLength} characters; choose another title.`,
    );
  }
  return trimmed;
}

/** Throws `invalid_record` unless the approval's scope and card agree. */
export function checkApprovalScope(approval: NewApproval): void {
  if ((approval.scope === "card") !== (approval.instanceId !== null)) {
    throw new StoreError(
      "invalid_record",
      'An approval of scope "card" names its card, and one of scope "conversation" names none; fix the caller.',
    );
  }
}

/** Throws `invalid_record` unless the audit limit is a whole number within bounds. */
export function checkAuditLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > maximumAuditLimit) {
    throw new StoreError(
      "invalid_record",
      `The audit limit must be a whole number from 1 to ${maximumAuditLimit}.`,
    );
  }
}

/** Throws `invalid_record` unless a lease's time to live is a positive number of milliseconds. */
export function checkLeaseTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new StoreError(
      "invalid_record",
      "A lease's time to live must be a positive number of milliseconds; fix the caller.",
    );
  }
}

/** The `not_found` error of an action whose conversation is missing. */
export function conversationMissing(action: StoreAction): StoreError {
  return new StoreError(
    "not_found",
    `${action.what} (the conversation no longer exists); ${action.outcome ?? "nothing was changed"}. Open another conversation.`,
  );
}

/** The `not_found` error of an update whose message is missing. */
export function messageMissing(): StoreError {
  return new StoreError(
    "not_found",
    `${saveMessageAction.what} (it no longer exists in this conversation); ${saveMessageAction.outcome}. Reload the conversation.`,
  );
}

/** The `closed` error of an action tried after the store was closed. */
export function storeClosed(action: StoreAction): StoreError {
  return new StoreError(
    "closed",
    `${action.what} (the store is closed); ${action.outcome ?? "nothing was changed"}. The server is shutting down; try again after it restarts.`,
  );
}

/**
 * Whether a change is a late progress save: it carries parts but no status, and the message has
 * already finished (its status is no longer `streaming`). Such a change is dropped and the
 * stored message kept, so a progress save from another writer never overwrites a finished reply.
 *
 * @param status - the stored message's status.
 * @param changes - the requested changes.
 * @returns true when the change must not be applied.
 */
export function isLateProgressSave(
  status: MessageRecord["status"],
  changes: MessageChanges,
): boolean {
  return changes.parts !== undefined && changes.status === undefined && status !== "streaming";
}

/**
 * Applies changes to a message read inside the writing transaction.
 *
 * @param record - the stored message (changed in place).
 * @param changes - what to change; `null` removes an optional field.
 * @param updatedAt - the time of the change.
 */
export function applyMessageChanges(
  record: MessageRecord,
  changes: MessageChanges,
  updatedAt: number,
): void {
  if (changes.parts !== undefined) record.parts = changes.parts;
  if (changes.status !== undefined) record.status = changes.status;
  if (changes.error === null) delete record.error;
  else if (changes.error !== undefined) record.error = changes.error;
  if (changes.retryable === null) delete record.retryable;
  else if (changes.retryable !== undefined) record.retryable = changes.retryable;
  if (changes.usage === null) delete record.usage;
  else if (changes.usage !== undefined) record.usage = changes.usage;
  record.updatedAt = updatedAt;
}

/**
 * The statement that inserts a card or replaces every field of the one with the same key, in
 * either store's placeholder style (`?` for SQLite, `$1`… for Postgres).
 */
export function upsertCardSql(placeholder: (position: number) => string): string {
  const values = Array.from({ length: 14 }, (_, index) => placeholder(index + 1)).join(", ");
  return `INSERT INTO cards (conversation_id, instance_id, chat_id, kind, source, tool, arguments,
           result, cancelled, title, checked, message_id, created_at, closed_at)
         VALUES (${values})
         ON CONFLICT (conversation_id, instance_id) DO UPDATE SET
           chat_id = excluded.chat_id, kind = excluded.kind, source = excluded.source,
           tool = excluded.tool, arguments = excluded.arguments, result = excluded.result,
           cancelled = excluded.cancelled, title = excluded.title, checked = excluded.checked,
           message_id = excluded.message_id, created_at = excluded.created_at,
           closed_at = excluded.closed_at`;
}

/** A card's values in the order of {@link upsertCardSql}; `checked` as the store keeps booleans. */
export function upsertCardValues(
  record: CardRecord,
  flag: (value: boolean) => boolean | number,
): unknown[] {
  return [
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
    flag(record.checked),
    record.messageId ?? null,
    record.createdAt,
    record.closedAt ?? null,
  ];
}

/** A `seq` above every stored one: a page "before" it is the conversation's latest. */
export const pastLastSeq = 2_147_483_647;

/**
 * A page of messages from up to `limit + 1` rows read latest first: the `limit` latest of them
 * in `seq` order, and whether there was one more (earlier) row.
 */
export function pageOf(latestFirst: MessageRecord[], limit: number): MessagePage {
  return { messages: latestFirst.slice(0, limit).reverse(), earlier: latestFirst.length > limit };
}

/**
 * The INSERT of one audited page call, in either store's placeholder style (`?` for SQLite, `$1`…
 * for Postgres), with {@link auditValues} as its values.
 */
export function auditInsertSql(placeholder: (position: number) => string): string {
  const values = Array.from({ length: 12 }, (_, index) => placeholder(index + 1)).join(", ");
  return `INSERT INTO audit (id, at, user_id, session_id, conversation_id, instance_id, source,
    tool, verdict, reason, duration_ms, approval)
  VALUES (${values})`;
}

/** An audit record's values in the order of {@link auditInsertSql}. */
export function auditValues(record: AuditRecord): unknown[] {
  return [
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
  ];
}
