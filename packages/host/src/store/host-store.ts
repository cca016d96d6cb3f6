/**
 * The store's records and its interface. Every method returns a promise so that a store on
 * another database (Postgres, for several nodes) can follow without changing callers.
 *
 * Times are milliseconds since the Unix epoch. Model context reports are never stored.
 */

/** A JSON value, as stored in message parts and card records. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A person known to the store. */
export interface UserRecord {
  id: string;
  name: string;
  createdAt: number;
}

/** A saved conversation, owned by one user. */
export interface ConversationRecord {
  id: string;
  userId: string;
  title: string;
  createdAt: number;
  /** Bumped by every write to the conversation's messages or cards and by a rename. */
  updatedAt: number;
  /** True when the conversation came from {@link HostStore.importConversation}. */
  imported: boolean;
}

/** Who wrote a message. */
export type MessageRole = "user" | "assistant";

/**
 * Where a message stands. A reply is created `streaming`, then becomes `complete`, `error` or
 * `stopped` (the person stopped it); a reply still `streaming` when the server starts again was
 * cut short by a crash and becomes `interrupted`.
 */
export type MessageStatus = "complete" | "streaming" | "interrupted" | "error" | "stopped";

/** Text written by the person or the model. */
export interface TextPart {
  type: "text";
  text: string;
}

/** A tool call made by the model (arguments passed through as sent). */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  /** The tool's own name on its source. */
  name: string;
  arguments: JsonValue;
  /** The source the tool belongs to. */
  source?: string;
  /** The name the model was given for the tool, when it differs from `name`. */
  modelName?: string;
}

/** The value the model saw from a tool call. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  name: string;
  value: JsonValue;
  isError: boolean;
  /** The name the model was given for the tool, when it differs from `name`. */
  modelName?: string;
}

/** A card shown at this point of the message. */
export interface CardPart {
  type: "card";
  instanceId: string;
  /** The model tool call that opened the card. */
  toolCallId?: string;
}

/** One part of a message. */
export type MessagePart = TextPart | ToolCallPart | ToolResultPart | CardPart;

/** One message of a conversation. */
export interface MessageRecord {
  id: string;
  conversationId: string;
  /** The chat's key within the session (`chat-1`, `support`). */
  chatId: string;
  /** Position in the conversation: starts at 1, increases by one per appended message. */
  seq: number;
  role: MessageRole;
  parts: MessagePart[];
  status: MessageStatus;
  /** For status `error`: what went wrong, for the person. */
  error?: string;
  /** For status `error`: whether running the turn again may help. */
  retryable?: boolean;
  /** The tokens the provider reported for a reply. */
  usage?: MessageUsage;
  /** For a person's message an app's view wrote (`submit` mode): which app. */
  fromApp?: MessageFromApp;
  createdAt: number;
  updatedAt: number;
}

/** The app that wrote a message sent as the person's (a chat whose app messages `submit`). */
export interface MessageFromApp {
  /** The card whose view wrote it. */
  instanceId: string;
  /** The card's source. */
  source: string;
  /** The card's title. */
  title: string;
}

/** Tokens a provider reported for a reply; absent fields were not reported. */
export interface MessageUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
}

/** A card's kind: opened by a tool call in a chat, or a pane opened by the developer. */
export type CardKind = "card" | "pane";

/**
 * A card's saved descriptor (seed-behaviours 1.4), keyed by (conversationId, instanceId).
 * It carries no page HTML: the page is read again from the source on restore.
 */
export interface CardRecord {
  instanceId: string;
  conversationId: string;
  /** The owning chat's key; null for a pane. */
  chatId: string | null;
  kind: CardKind;
  source: string;
  tool: string;
  /** The opening call's arguments (`{}` when none). */
  arguments: JsonObject;
  /** The full MCP CallToolResult of the opening call, or null when it has none (yet). */
  result: JsonObject | null;
  /** When the opening call failed or was stopped: why (the page gets `tool-cancelled`). */
  cancelled?: string;
  title: string;
  /** The restored-card mark: the card's page calls were checked when it was opened. */
  checked: boolean;
  /** The message whose reply opened the card. */
  messageId?: string;
  createdAt: number;
  /** When the card was closed; absent while it is open. */
  closedAt?: number;
}

/** How far a remembered "allow" reaches: one card, or every card of the conversation. */
export type ApprovalScope = "card" | "conversation";

/** A remembered answer "allow for this card / for this conversation" to a page's tool call. */
export interface ApprovalRecord {
  conversationId: string;
  scope: ApprovalScope;
  /** The card for scope `card`; null for scope `conversation`. */
  instanceId: string | null;
  source: string;
  tool: string;
  createdAt: number;
}

/** The gate's answer to a page's tool call, as audited. */
export type AuditVerdict = "allowed" | "refused" | "failed";

/** How the question to the person about a page call was settled, as audited. */
export interface AuditApproval {
  /**
   * `person`: they answered this question; `remembered`: an answer they gave earlier (for the
   * card or the conversation) covered it; `nobody`: the card closed or the session ended first.
   */
  answeredBy: "person" | "remembered" | "nobody";
  /** The answer (for `remembered`, the remembered one); absent for `nobody`. */
  answer?: "allow-once" | "allow-card" | "allow-conversation" | "refuse";
  /** What the answer covers: this call, the card's calls of this tool, or the conversation's. */
  scope?: "call" | "card" | "conversation";
  /** When the answer was given (ms since the epoch). */
  answeredAt?: number;
}

/** One audited page tool call. */
export interface AuditRecord {
  id: string;
  at: number;
  userId: string;
  sessionId: string;
  /** Null for a pane shown outside any saved conversation. */
  conversationId: string | null;
  instanceId: string;
  source: string;
  tool: string;
  verdict: AuditVerdict;
  reason?: string;
  durationMs: number;
  /** Present when the gate asked the person about this call. */
  approval?: AuditApproval;
}

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
  version: 1;
  exportedAt: number;
  conversation: { title: string; createdAt: number };
  messages: Omit<MessageRecord, "conversationId">[];
  cards: Omit<CardRecord, "conversationId">[];
  approvals: Omit<ApprovalRecord, "conversationId">[];
}

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
  /** Changes a message's parts, status or error. Throws `not_found` when it is missing. */
  updateMessage(
    conversationId: string,
    messageId: string,
    changes: MessageChanges,
  ): Promise<MessageRecord>;
  /** The conversation's messages in `seq` order. */
  listMessages(conversationId: string): Promise<MessageRecord[]>;
  /** Marks every `streaming` message `interrupted` (run at start); returns how many changed. */
  markInterruptedReplies(): Promise<number>;

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
