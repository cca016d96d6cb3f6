/**
 * The store's interface. Every method returns a promise so that a store on another database
 * (Postgres, for several nodes) can follow without changing callers. Its records
 * (`store-records.ts`) and inputs (`store-inputs.ts`) are re-exported here.
 *
 * Times are milliseconds since the Unix epoch. Model context reports are never stored.
 */

import type {
  AuditQuery,
  ConversationDocument,
  MessageChanges,
  NewApproval,
  NewAudit,
  NewCard,
  NewConversation,
  NewMessage,
  SignInStateOutcome,
  SignInTokenOutcome,
} from "./store-inputs";
import type {
  ApprovalRecord,
  AuditRecord,
  CardRecord,
  ConversationRecord,
  MessageRecord,
  ServerGrantRecord,
  ConnectorRecord,
  UserRecord,
} from "./store-records";

export type * from "./store-records";

/** A page of a conversation's messages ({@link HostStore.listMessagePage}). */
export interface MessagePage {
  /** The messages, in `seq` order. */
  messages: MessageRecord[];
  /** True when the conversation has messages before the first one here. */
  earlier: boolean;
}
export type * from "./store-inputs";

/**
 * Where the host keeps users, conversations, messages, cards, remembered approvals and the
 * audit of page calls.
 *
 * Rules every implementation keeps:
 * - every write is one transaction, committed before its promise resolves, so a caller may
 *   acknowledge to the browser as soon as the promise resolves;
 * - failures reject with a `StoreError` (`storage_full`, `storage_busy`, `storage_failed`, ...);
 * - methods that take a `userId` never return or change another user's data. Methods keyed only
 *   by a conversation id trust the caller to have checked ownership with `getConversation`.
 */
export interface HostStore {
  /** Creates the user if missing (name defaults to the id); renames it when `name` differs. */
  ensureUser(id: string, name?: string): Promise<UserRecord>;
  /** The user, or null. */
  getUser(id: string): Promise<UserRecord | null>;

  /** Creates a conversation for the user (creating the user if missing). */
  createConversation(userId: string, conversation?: NewConversation): Promise<ConversationRecord>;
  /** The user's conversations, most recently updated first. */
  listConversations(userId: string): Promise<ConversationRecord[]>;
  /** The conversation if it exists and belongs to the user, else null. */
  getConversation(userId: string, id: string): Promise<ConversationRecord | null>;
  /** Renames the user's conversation; null when it is not theirs or missing. Throws `invalid_record` on an empty title. */
  renameConversation(userId: string, id: string, title: string): Promise<ConversationRecord | null>;
  /** Deletes the user's conversation with its messages, cards and approvals; false when not theirs. */
  deleteConversation(userId: string, id: string): Promise<boolean>;

  /** Appends a message with the next `seq`. Throws `not_found` when the conversation is missing. */
  appendMessage(message: NewMessage): Promise<MessageRecord>;
  /**
   * Changes a message's parts, status or error. Throws `not_found` when it is missing. A change
   * with parts and no status to a message no longer `streaming` (a late progress save from
   * another writer) changes nothing and returns the stored message.
   */
  updateMessage(
    conversationId: string,
    messageId: string,
    changes: MessageChanges,
  ): Promise<MessageRecord>;
  /** The conversation's messages in `seq` order. */
  listMessages(conversationId: string): Promise<MessageRecord[]>;
  /**
   * The conversation's last `limit` messages whose `seq` is below `before` (absent: its last
   * `limit` messages), in `seq` order, and whether it has earlier ones.
   */
  listMessagePage(
    conversationId: string,
    page: { before?: number; limit: number },
  ): Promise<MessagePage>;
  /**
   * Marks `interrupted` the replies no living node is streaming (as
   * {@link HostStore.interruptOrphanedReplies}); returns how many changed. A single server that
   * keeps no lease runs it once at start, which marks every reply a crash left `streaming`.
   */
  markInterruptedReplies(): Promise<number>;
  /**
   * In one transaction: deletes expired leases, then marks `interrupted` every `streaming`
   * message whose node has no unexpired lease (or that names no node).
   *
   * @returns the messages it changed, so the caller can tell the tabs showing them.
   */
  interruptOrphanedReplies(): Promise<MessageRecord[]>;
  /**
   * Marks `interrupted` every `streaming` message of one node (its own drain or shutdown, or a
   * start under the id a crashed process used).
   *
   * @returns the messages it changed.
   */
  interruptRepliesOf(nodeId: string): Promise<MessageRecord[]>;

  /** Records that the node is alive until now + `ttlMs` (inserting or moving its lease). */
  renewLease(nodeId: string, ttlMs: number): Promise<void>;
  /** Removes the node's lease (a clean stop); its streaming replies become orphans. */
  releaseLease(nodeId: string): Promise<void>;

  /**
   * Keeps a one-time sign-in token's digest until `expiresAt` (ms since the epoch), so any node
   * can spend it. Saving a digest again keeps the first one. Expired tokens are removed.
   */
  saveSignInToken(digest: string, expiresAt: number): Promise<void>;
  /**
   * Spends a token atomically: across every store on the same database exactly one call gets
   * `accepted`. A spent digest answers `already-used` until it expires; a digest never saved, or
   * expired at `now`, answers `unknown`.
   */
  spendSignInToken(digest: string, now: number): Promise<SignInTokenOutcome>;

  /**
   * Keeps an OpenID Connect sign-in in progress (the digest of its `state`, and its nonce and
   * PKCE verifier as `data`) until `expiresAt`, so the node that receives the provider's answer
   * can finish a flow another node started. Saving a digest again keeps the first. Expired states
   * are removed.
   */
  saveSignInState(digest: string, data: string, expiresAt: number): Promise<void>;
  /**
   * Takes a sign-in state atomically: across every store on the same database exactly one call
   * gets `accepted` with its data; later calls get `already-used` until it expires; a digest
   * never saved, or expired at `now`, gets `unknown`.
   */
  takeSignInState(digest: string, now: number): Promise<SignInStateOutcome>;

  /** A person's sealed OAuth grant for a server, or null when they have none. */
  getServerGrant(userId: string, server: string): Promise<ServerGrantRecord | null>;
  /** Keeps (replaces) a person's sealed grant for a server. */
  saveServerGrant(grant: ServerGrantRecord): Promise<void>;
  /** Forgets a person's grant for a server; true when there was one. */
  deleteServerGrant(userId: string, server: string): Promise<boolean>;
  /** The servers a person holds a grant for, by name. */
  listServerGrants(userId: string): Promise<string[]>;
  /**
   * Runs `work` while holding the lock of one person's grant for one server, across every node on
   * the same database (Postgres: an advisory lock; SQLite, one node: a lock in this process), so
   * a refresh token is redeemed once however many sessions need a new access token at once.
   */
  withServerGrantLock<T>(userId: string, server: string, work: () => Promise<T>): Promise<T>;

  /** The remote MCP servers a person added themselves (connectors), by name. */
  listConnectors(userId: string): Promise<ConnectorRecord[]>;
  /** Keeps (replaces) one of a person's connectors. */
  saveConnector(connector: ConnectorRecord): Promise<void>;
  /** Forgets one of a person's connectors; true when there was one. */
  deleteConnector(userId: string, name: string): Promise<boolean>;

  /** Saves (inserts or replaces) a card's descriptor. Throws `not_found` when the conversation is missing. */
  saveCard(card: NewCard): Promise<CardRecord>;
  /** Records that the card was closed; false when there is no such card. */
  closeCard(conversationId: string, instanceId: string, closedAt?: number): Promise<boolean>;
  /** The card, or null. */
  getCard(conversationId: string, instanceId: string): Promise<CardRecord | null>;
  /** The conversation's cards in the order they were created. */
  listCards(conversationId: string): Promise<CardRecord[]>;

  /** Remembers an approval (idempotent: the first one for the same key is kept and returned). */
  rememberApproval(approval: NewApproval): Promise<ApprovalRecord>;
  /** The conversation's remembered approvals, oldest first. */
  listApprovals(conversationId: string): Promise<ApprovalRecord[]>;

  /** Appends one audited page call. */
  appendAudit(entry: NewAudit): Promise<AuditRecord>;
  /** Appends several audited page calls in one transaction (all or none). */
  appendAudits(entries: readonly NewAudit[]): Promise<AuditRecord[]>;
  /** Audited page calls, newest first, filtered by conversation and/or user. */
  listAudit(query?: AuditQuery): Promise<AuditRecord[]>;

  /** The user's conversation as a document; null when it is not theirs or missing. */
  exportConversation(userId: string, id: string): Promise<ConversationDocument | null>;
  /**
   * Validates a document (an object, or its JSON text) and stores it as a new conversation of the
   * user, flagged `imported`. Cards keep their instance ids. The document's `approvals` are read
   * but never kept: a file can't answer for the person, who is asked again. Throws
   * `invalid_import` (with `path`) on a bad document, having written nothing.
   */
  importConversation(userId: string, document: unknown): Promise<ConversationRecord>;

  /** Closes the store; later calls reject with `closed`. Safe to call twice. */
  close(): Promise<void>;
}
