import { z } from "zod";
import type { Ack } from "./ack";
import { limits } from "./limits";
import {
  type ApprovalDecision,
  approvalDecisions,
  type ApprovalRequest,
  type AttachReply,
  type CardDescriptor,
  type ChatMessage,
  type ChatTool,
  contentBlockSchema,
  type ConversationSnapshot,
  type ConversationSummary,
  idSchema,
  jsonObjectSchema,
  pagePermissionNames,
  type SessionSnapshot,
} from "./records";

/** A string whose JSON form stays under the card payload cap. */
function capped<T extends z.ZodType>(schema: T) {
  return schema.refine(
    (value) => JSON.stringify(value ?? null).length <= limits.maxCardPayloadChars,
    `is larger than ${limits.maxCardPayloadChars} characters of JSON`,
  );
}

/**
 * Payload schemas of every event the browser sends, by event name.
 * The server parses each payload with its schema before doing anything.
 */
export const clientEventSchemas = {
  "session:hello": z.object({ conversationId: idSchema.optional() }).strict(),
  "conversation:list": z.object({}).strict(),
  "conversation:create": z
    .object({ title: z.string().trim().min(1).max(limits.maxTitleChars).optional() })
    .strict(),
  "conversation:open": z.object({ conversationId: idSchema }).strict(),
  "conversation:rename": z
    .object({ conversationId: idSchema, title: z.string().trim().min(1).max(limits.maxTitleChars) })
    .strict(),
  "conversation:delete": z.object({ conversationId: idSchema }).strict(),
  "conversation:export": z.object({ conversationId: idSchema }).strict(),
  "conversation:import": z.object({ document: capped(jsonObjectSchema) }).strict(),
  "message:send": z
    .object({
      chatId: idSchema,
      text: z.string().trim().min(1, "is empty").max(limits.maxMessageChars),
      /** The browser's own id for the message, so a resend after a reconnect is not stored twice. */
      clientId: idSchema,
    })
    .strict(),
  "turn:stop": z.object({ chatId: idSchema }).strict(),
  /**
   * Runs a chat's last turn again after its reply failed, was stopped or was interrupted: no
   * message is added; a new reply follows the person's last message.
   */
  "turn:retry": z.object({ chatId: idSchema, messageId: idSchema }).strict(),
  "card:attach": z
    .object({
      instanceId: idSchema,
      /**
       * The permissions the person granted the card's source (issue 9, item 7); only these of
       * the view's declared ones reach the sandbox. Absent: none.
       */
      permissions: z.array(z.enum(pagePermissionNames)).max(pagePermissionNames.length).optional(),
    })
    .strict(),
  "card:call-tool": z
    .object({
      instanceId: idSchema,
      name: z.string().min(1).max(limits.maxIdChars),
      arguments: capped(jsonObjectSchema).optional(),
    })
    .strict(),
  "card:read-resource": z
    .object({ instanceId: idSchema, uri: z.string().min(1).max(2_048) })
    .strict(),
  "card:list-resources": z
    .object({ instanceId: idSchema, cursor: z.string().max(2_048).optional() })
    .strict(),
  "card:list-resource-templates": z
    .object({ instanceId: idSchema, cursor: z.string().max(2_048).optional() })
    .strict(),
  "card:update-context": z
    .object({
      instanceId: idSchema,
      /** The page load's generation from its `card:attach` reply; an older load's report is refused. */
      generation: z.number().int().nonnegative().optional(),
      content: capped(z.array(contentBlockSchema).max(100)).optional(),
      structuredContent: capped(jsonObjectSchema).optional(),
    })
    .strict(),
  "card:post-message": z
    .object({
      instanceId: idSchema,
      /** The page load's generation from its `card:attach` reply; an older load's message is dropped. */
      generation: z.number().int().nonnegative().optional(),
      role: z.literal("user"),
      content: capped(z.array(contentBlockSchema).max(100)),
    })
    .strict(),
  "card:log": z
    .object({
      instanceId: idSchema,
      level: z.enum([
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
      ]),
      logger: z.string().max(200).optional(),
      data: capped(z.unknown()),
    })
    .strict(),
  "card:teardown": z
    .object({
      instanceId: idSchema,
      reason: z.enum(["closed", "conversation-closed", "unmounted", "replaced"]),
    })
    .strict(),
  "approval:answer": z
    .object({
      approvalId: idSchema,
      decision: z.enum(approvalDecisions),
      reason: z.string().max(limits.maxReasonChars).optional(),
    })
    .strict(),
  "context:inspect": z.object({ chatId: idSchema }).strict(),
  /** The audit of one of the person's conversations: its apps' tool calls, newest first. */
  "audit:list": z
    .object({
      conversationId: idSchema,
      /** At most this many entries, 1 to 1,000 (default 200). */
      limit: z.number().int().min(1).max(1_000).optional(),
    })
    .strict(),
} as const;

/** Names of the events the browser sends. */
export type ClientEventName = keyof typeof clientEventSchemas;

/** The payload of a browser event, after validation. */
export type ClientPayload<E extends ClientEventName> = z.infer<(typeof clientEventSchemas)[E]>;

/** How the question to the person about an app's call was settled (see {@link AuditEntry}). */
export interface AuditEntryApproval {
  /**
   * `person`: the person answered this question; `remembered`: an answer they gave earlier, for
   * the card or the conversation, covered it; `nobody`: the card closed or the session ended first.
   */
  answeredBy: "person" | "remembered" | "nobody";
  /** The answer (for `remembered`, the remembered one); absent for `nobody`. */
  answer?: ApprovalDecision;
  /** What the answer covers: this call, the card's calls of this tool, or the conversation's. */
  scope?: "call" | "card" | "conversation";
  /** When the answer was given (ms since the epoch). */
  answeredAt?: number;
}

/** One tool call an app's view made in a conversation, as the host audited it. */
export interface AuditEntry {
  id: string;
  /** When the call was made (ms since the epoch). */
  at: number;
  /** The card whose view made the call. */
  instanceId: string;
  /** The app's source (the MCP server's name). */
  source: string;
  /** The tool it called. */
  tool: string;
  /** `allowed` (it ran), `refused` (by the rate limit, the visibility check, a policy or the person), `failed` (it ran and failed). */
  verdict: "allowed" | "refused" | "failed";
  /** Why it was refused or failed. */
  reason?: string;
  durationMs: number;
  /** Present when the person was asked about the call. */
  approval?: AuditEntryApproval;
}

/** What the model was told about the open apps at a chat's last turn. */
export interface ContextInspection {
  chatId: string;
  /** The exact text `host.context()` produced, or null when no app reported. */
  text: string | null;
  /** When it was built (ms since the epoch), or null before the first turn. */
  builtAt: number | null;
  /** Whether that text was sent to the model (false when the chat has `context: false`). */
  injected: boolean;
}

/** What each browser event's acknowledgement carries when it succeeds. */
export interface ClientEventValues {
  "session:hello": SessionSnapshot;
  "conversation:list": ConversationSummary[];
  "conversation:create": ConversationSnapshot;
  "conversation:open": ConversationSnapshot;
  "conversation:rename": ConversationSummary;
  "conversation:delete": { deleted: true };
  "conversation:export": Record<string, unknown>;
  "conversation:import": ConversationSummary;
  "message:send": { messageId: string; duplicate: boolean };
  "turn:stop": { stopped: boolean };
  "turn:retry": { messageId: string };
  "card:attach": AttachReply;
  "card:call-tool": Record<string, unknown>;
  "card:read-resource": Record<string, unknown>;
  "card:list-resources": Record<string, unknown>;
  "card:list-resource-templates": Record<string, unknown>;
  "card:update-context": { reportedAt: number };
  /** Where an app's message went; for `drop`, why (for the card's log). */
  "card:post-message": { action: "compose" | "submit" | "drop"; reason?: string };
  "card:log": Record<string, never>;
  "card:teardown": Record<string, never>;
  "approval:answer": Record<string, never>;
  "context:inspect": ContextInspection;
  "audit:list": { conversationId: string; entries: AuditEntry[] };
}

/** socket.io's typing of the events the browser sends (every one has an acknowledgement). */
export type ClientToServerEvents = {
  [E in ClientEventName]: (
    payload: ClientPayload<E>,
    ack: (ack: Ack<ClientEventValues[E]>) => void,
  ) => void;
};

/** Payloads of every event the server sends, by event name. */
export interface ServerEvents {
  /** A message was stored (the person's, an app's submitted message, or the start of a reply). */
  "message:created": { message: ChatMessage };
  /** More text of a reply being written. */
  "message:delta": { conversationId: string; chatId: string; messageId: string; delta: string };
  /** A message changed (a reply finished, was stopped, or failed); carries the whole message. */
  "message:updated": { message: ChatMessage };
  /** A model tool call started. */
  "tool:started": {
    conversationId: string;
    chatId: string;
    messageId: string;
    toolCallId: string;
    /** The tool's own name on its source. */
    name: string;
    arguments: unknown;
    startedAt: number;
    /** The source the tool belongs to. */
    source?: string;
    /** The name the model was given, when it differs from `name`. */
    modelName?: string;
  };
  /** A running tool reported progress. */
  "tool:progress": {
    chatId: string;
    toolCallId: string;
    progress: number;
    total?: number;
    message?: string;
  };
  /** A model tool call ended. */
  "tool:finished": {
    chatId: string;
    toolCallId: string;
    name: string;
    isError: boolean;
    value: unknown;
    durationMs: number;
  };
  /** A tool call was refused before it ran (permissions, `onToolRequest`, budget). */
  "tool:refused": { chatId: string; toolCallId: string; name: string; reason: string };
  /** A card was committed to the store; the browser mounts it. */
  "card:opened": { card: CardDescriptor };
  /**
   * The model is still writing a card's opening arguments (the card was opened with
   * `inputStreaming: true`): the best-effort parse of what it wrote so far, for the page's
   * `tool-input-partial`. Each one replaces the previous; none follows `card:input`.
   */
  "card:input-partial": { instanceId: string; arguments: Record<string, unknown> };
  /**
   * A streaming card's opening arguments are final and its call runs now; the page gets
   * `tool-input` with them (once). Sent only for cards opened with `inputStreaming: true`.
   */
  "card:input": { instanceId: string; arguments: Record<string, unknown> };
  /** A card's opening call returned; the page gets `tool-result`. */
  "card:result": { instanceId: string; result: Record<string, unknown> };
  /** A card's opening call failed or was stopped; the page gets `tool-cancelled`. */
  "card:cancelled": { instanceId: string; reason: string };
  /** A card was closed by the server (session end, source gone). */
  "card:closed": { instanceId: string; reason: string };
  /** An app asked to post a message and the chat composes: fill that chat's input box. */
  "composer:fill": { chatId: string; text: string; instanceId: string };
  /**
   * The tools a chat offers the model, as last listed (sent when the list changes, and after
   * hello). Tools whose model name differs from their own carry `renamed`.
   */
  "chat:tools": { chatId: string; tools: ChatTool[] };
  /** A turn started or ended in a chat. */
  "turn:state": { chatId: string; conversationId: string; running: boolean };
  /** The model context of a chat's last turn, for the inspector. */
  "context:built": {
    chatId: string;
    text: string | null;
    builtAt: number;
    injected: boolean;
  };
  /** The server asks the person about a card's tool call. */
  "approval:request": ApprovalRequest;
  /** A pending approval was answered or withdrawn (another tab, session end). */
  "approval:settled": { approvalId: string };
  /** The person's conversation list changed (another tab renamed, deleted, imported). */
  "conversations:changed": { conversations: ConversationSummary[] };
  /** Something the person should know that belongs to no request. */
  notice: { level: "info" | "warning" | "error"; message: string };
}

/** Names of the events the server sends. */
export type ServerEventName = keyof ServerEvents;

/** socket.io's typing of the events the server sends. */
export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEvents[E]) => void;
};
