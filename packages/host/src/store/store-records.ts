/**
 * The store's records: what `HostStore` (of `./host-store`) keeps and gives back. Times are
 * milliseconds since the Unix epoch.
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

/** Where a model tool call can be in its life (the AI SDK's tool states). */
export const toolPartStates = [
  "input-streaming",
  "input-available",
  "output-available",
  "output-error",
  "output-denied",
] as const;

/** Where a model tool call is in its life: one of {@link toolPartStates}. */
export type ToolPartState = (typeof toolPartStates)[number];

/**
 * A model tool call and what became of it: its input (passed through as the model sent it), its
 * state, the value the model saw or why it has none, and the card it opened.
 */
export interface ToolPart {
  type: "tool";
  toolCallId: string;
  /** The tool's own name on its source. */
  name: string;
  /** The source the tool belongs to. */
  source?: string;
  /** The name the model was given for the tool, when it differs from `name`. */
  modelName?: string;
  state: ToolPartState;
  input: JsonValue;
  /** The value the model saw (`output-available`). */
  output?: JsonValue;
  /** Why there is no output (`output-error`, `output-denied`): what the model and the person read. */
  errorText?: string;
  /** The card the call opened. */
  instanceId?: string;
}

/** A card no model tool call opened, shown at this point of the message. */
export interface CardPart {
  type: "card";
  instanceId: string;
}

/**
 * A server's resource the person attached to their message, as read when the message was sent:
 * a text resource's `text`, or a binary one's `blob` (base64).
 */
export interface ResourcePart {
  type: "resource";
  /** The source the resource belongs to. */
  source: string;
  uri: string;
  /** The resource's name, when the server gave one. */
  name?: string;
  mimeType?: string;
  /** A text resource's text. */
  text?: string;
  /** A binary resource's bytes, base64-encoded. */
  blob?: string;
}

/** One part of a message. */
export type MessagePart = TextPart | ToolPart | CardPart | ResourcePart;

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
 * A card's saved descriptor, keyed by (conversationId, instanceId).
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

/** A remote MCP server one person added for themselves (a connector). */
export interface ConnectorRecord {
  userId: string;
  /** The connector's name, unique among the person's servers (never a configured server's). */
  name: string;
  /** Its address, as checked when the person added it. */
  url: string;
  createdAt: number;
}

/**
 * A person's OAuth grant for one MCP server, sealed (AES-256-GCM) by the host before it reaches
 * the store: the store never sees a token in the clear.
 */
export interface ServerGrantRecord {
  userId: string;
  /** The MCP server's name in the configuration. */
  server: string;
  /** The sealed grant (tokens, client registration, discovery), see `oauth/credential-seal.ts`. */
  sealed: string;
  updatedAt: number;
}
