/**
 * The rows of the store's tables (SQLite's, and Postgres's with the same columns) and their
 * conversion to records. JSON columns are parsed
 * here; NULL columns become absent optional fields (exactOptionalPropertyTypes).
 */
import type {
  ApprovalRecord,
  ApprovalScope,
  AuditApproval,
  AuditRecord,
  AuditVerdict,
  CardKind,
  CardRecord,
  ConversationRecord,
  JsonObject,
  MessagePart,
  MessageFromApp,
  MessageRecord,
  MessageRole,
  MessageStatus,
  MessageUsage,
  UserRecord,
} from "./host-store";

/** A row of `users`. */
export interface UserRow {
  id: string;
  name: string;
  created_at: number;
}

/** A row of `conversations`. */
export interface ConversationRow {
  id: string;
  user_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  /** 0 or 1 on SQLite; a boolean on Postgres. */
  imported: number | boolean;
}

/** A row of `messages`. */
export interface MessageRow {
  conversation_id: string;
  id: string;
  chat_id: string;
  seq: number;
  role: string;
  parts: string;
  status: string;
  error: string | null;
  /** JSON of {@link MessageMeta}, or null. */
  meta: string | null;
  created_at: number;
  updated_at: number;
}

/** What `messages.meta` holds. */
export interface MessageMeta {
  retryable?: boolean;
  usage?: MessageUsage;
  /** The app that wrote a message sent as the person's. */
  fromApp?: MessageFromApp;
}

/** The `meta` column of a message, or null when it has nothing to hold. */
export function messageMetaColumn(message: MessageRecord): string | null {
  const meta: MessageMeta = {};
  if (message.retryable !== undefined) meta.retryable = message.retryable;
  if (message.usage !== undefined) meta.usage = message.usage;
  if (message.fromApp !== undefined) meta.fromApp = message.fromApp;
  return Object.keys(meta).length === 0 ? null : JSON.stringify(meta);
}

/** A row of `cards`. */
export interface CardRow {
  conversation_id: string;
  instance_id: string;
  chat_id: string | null;
  kind: string;
  source: string;
  tool: string;
  arguments: string;
  result: string | null;
  cancelled: string | null;
  title: string;
  /** 0 or 1 on SQLite; a boolean on Postgres. */
  checked: number | boolean;
  message_id: string | null;
  created_at: number;
  closed_at: number | null;
}

/** A row of `approvals`. */
export interface ApprovalRow {
  conversation_id: string;
  scope: string;
  instance_id: string | null;
  source: string;
  tool: string;
  created_at: number;
}

/** A row of `audit`. */
export interface AuditRow {
  id: string;
  at: number;
  user_id: string;
  session_id: string;
  conversation_id: string | null;
  instance_id: string;
  source: string;
  tool: string;
  verdict: string;
  reason: string | null;
  duration_ms: number;
  /** JSON of an {@link AuditApproval}; absent in files older than schema 3. */
  approval?: string | null;
}

/** Converts a `users` row. */
export function userFromRow(row: UserRow): UserRecord {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

/** Converts a `conversations` row. */
export function conversationFromRow(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    userId: row.user_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    imported: row.imported === 1 || row.imported === true,
  };
}

/** Converts a `messages` row (the CHECK constraints guarantee the enum columns). */
export function messageFromRow(row: MessageRow): MessageRecord {
  const message: MessageRecord = {
    id: row.id,
    conversationId: row.conversation_id,
    chatId: row.chat_id,
    seq: row.seq,
    role: row.role as MessageRole,
    parts: JSON.parse(row.parts) as MessagePart[],
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.error !== null) message.error = row.error;
  if (row.meta !== null) {
    const meta = JSON.parse(row.meta) as MessageMeta;
    if (meta.retryable !== undefined) message.retryable = meta.retryable;
    if (meta.usage !== undefined) message.usage = meta.usage;
    if (meta.fromApp !== undefined) message.fromApp = meta.fromApp;
  }
  return message;
}

/** Converts a `cards` row. */
export function cardFromRow(row: CardRow): CardRecord {
  const card: CardRecord = {
    instanceId: row.instance_id,
    conversationId: row.conversation_id,
    chatId: row.chat_id,
    kind: row.kind as CardKind,
    source: row.source,
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as JsonObject,
    result: row.result === null ? null : (JSON.parse(row.result) as JsonObject),
    title: row.title,
    checked: row.checked === 1 || row.checked === true,
    createdAt: row.created_at,
  };
  if (row.cancelled !== null) card.cancelled = row.cancelled;
  if (row.message_id !== null) card.messageId = row.message_id;
  if (row.closed_at !== null) card.closedAt = row.closed_at;
  return card;
}

/** Converts an `approvals` row. */
export function approvalFromRow(row: ApprovalRow): ApprovalRecord {
  return {
    conversationId: row.conversation_id,
    scope: row.scope as ApprovalScope,
    instanceId: row.instance_id,
    source: row.source,
    tool: row.tool,
    createdAt: row.created_at,
  };
}

/** Converts an `audit` row. */
export function auditFromRow(row: AuditRow): AuditRecord {
  const entry: AuditRecord = {
    id: row.id,
    at: row.at,
    userId: row.user_id,
    sessionId: row.session_id,
    conversationId: row.conversation_id,
    instanceId: row.instance_id,
    source: row.source,
    tool: row.tool,
    verdict: row.verdict as AuditVerdict,
    durationMs: row.duration_ms,
  };
  if (row.reason !== null) entry.reason = row.reason;
  if (typeof row.approval === "string") entry.approval = JSON.parse(row.approval) as AuditApproval;
  return entry;
}
