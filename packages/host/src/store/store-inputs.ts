/** The inputs, changes and queries of `HostStore` (of `./host-store`) and its exported document. */

import type {
  ApprovalRecord,
  AuditRecord,
  CardRecord,
  MessageFromApp,
  MessagePart,
  MessageRecord,
  MessageRole,
  MessageStatus,
  MessageUsage,
} from "./store-records";

/** Input of {@link HostStore.createConversation}. */
export interface NewConversation {
  id?: string;
  /** Default "New conversation". */
  title?: string;
  createdAt?: number;
}

/** Input of {@link HostStore.appendMessage}. */
export interface NewMessage {
  id?: string;
  conversationId: string;
  chatId: string;
  role: MessageRole;
  parts: MessagePart[];
  /** Default `complete`; a reply being streamed starts as `streaming`. */
  status?: MessageStatus;
  error?: string;
  /** For a person's message an app's view wrote. */
  fromApp?: MessageFromApp;
  /**
   * The node (server process) streaming this reply. Stored, never part of the record read back:
   * it only decides whose replies {@link HostStore.interruptOrphanedReplies} may mark.
   */
  nodeId?: string;
  createdAt?: number;
}

/** Changes of {@link HostStore.updateMessage}; `error: null` clears the error. */
export interface MessageChanges {
  parts?: MessagePart[];
  status?: MessageStatus;
  error?: string | null;
  /** null removes it. */
  retryable?: boolean | null;
  /** null removes it. */
  usage?: MessageUsage | null;
}

/** What {@link HostStore.spendSignInToken} found. */
export type SignInTokenOutcome = "accepted" | "already-used" | "unknown";

/**
 * What {@link HostStore.takeSignInState} found: the flow's data the first time, `already-used`
 * afterwards until it expires, `unknown` for a state never saved or expired.
 */
export type SignInStateOutcome =
  { outcome: "accepted"; data: string } | { outcome: "already-used" } | { outcome: "unknown" };

/** Input of {@link HostStore.saveCard}. */
export type NewCard = Omit<CardRecord, "createdAt"> & { createdAt?: number };

/** Input of {@link HostStore.rememberApproval}. */
export type NewApproval = Omit<ApprovalRecord, "createdAt"> & { createdAt?: number };

/** Input of {@link HostStore.appendAudit}. */
export type NewAudit = Omit<AuditRecord, "id" | "at"> & { id?: string; at?: number };

/** Filter of {@link HostStore.listAudit}. */
export interface AuditQuery {
  conversationId?: string;
  userId?: string;
  /** At most this many records, newest first. Default 100, at most 10,000. */
  limit?: number;
}

/** The exported form of one conversation (see `conversation-export.ts` for its schema). */
export interface ConversationDocument {
  format: "mcp-chat-host.conversation";
  /** 2 since a tool call is one `tool` part; a file of version 1 is read and converted. */
  version: 2;
  exportedAt: number;
  conversation: { title: string; createdAt: number };
  messages: Omit<MessageRecord, "conversationId">[];
  cards: Omit<CardRecord, "conversationId">[];
  approvals: Omit<ApprovalRecord, "conversationId">[];
}
