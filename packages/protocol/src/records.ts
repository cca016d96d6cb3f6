import { z } from "zod";
import { limits } from "./limits";

/** An id of a conversation, chat, card or approval: letters, digits and `_ . : -`. */
export const idSchema = z
  .string()
  .min(1)
  .max(limits.maxIdChars)
  .regex(/^[A-Za-z0-9_.:-]+$/, "must contain only letters, digits, and _ . : -");

/** A JSON object (a tool's arguments, an MCP result). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** An MCP content block; the server checks the kinds it acts on. */
export const contentBlockSchema = z.looseObject({ type: z.string() });

/** An MCP content block. */
export type ContentBlock = z.infer<typeof contentBlockSchema>;

/** MCP tool annotations, as a server declares them. */
export const toolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** MCP tool annotations. */
export type ToolAnnotations = z.infer<typeof toolAnnotationsSchema>;

/** A tool's definition as the browser sees it (for `toolInfo` and the approval dialog). */
export const toolInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: jsonObjectSchema,
  annotations: toolAnnotationsSchema.optional(),
  _meta: jsonObjectSchema.optional(),
});

/** A tool's definition as the browser sees it. */
export type ToolInfo = z.infer<typeof toolInfoSchema>;

/** One part of a stored message. */
export const messagePartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("tool-call"),
    toolCallId: z.string(),
    /** The tool's own name on its source (what the person sees). */
    name: z.string(),
    arguments: z.unknown(),
    /** The source (MCP server or app) the tool belongs to. */
    source: z.string().optional(),
    /** The name the model was given for the tool, when it differs from `name`. */
    modelName: z.string().optional(),
  }),
  z.object({
    type: z.literal("tool-result"),
    toolCallId: z.string(),
    name: z.string(),
    value: z.unknown(),
    isError: z.boolean(),
    /** The name the model was given for the tool, when it differs from `name`. */
    modelName: z.string().optional(),
  }),
  z.object({
    type: z.literal("card"),
    instanceId: z.string(),
    /** The model tool call that opened the card; the card shows with that call's row. */
    toolCallId: z.string().optional(),
  }),
]);

/** One part of a stored message: text, a tool call, its result, or a card it opened. */
export type MessagePart = z.infer<typeof messagePartSchema>;

/** Where a message is in its life. `interrupted`: the server stopped while it was being written. */
export const messageStatuses = [
  "complete",
  "streaming",
  "interrupted",
  "stopped",
  "error",
] as const;

/** A message of a conversation, as stored and as shown. */
export const messageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  chatId: z.string(),
  seq: z.number().int(),
  role: z.enum(["user", "assistant"]),
  parts: z.array(messagePartSchema),
  status: z.enum(messageStatuses),
  error: z.string().optional(),
  /** For status `error`: whether running the turn again (`turn:retry`) may help. */
  retryable: z.boolean().optional(),
  /** Tokens the model reported for a reply, when the provider reports them. */
  usage: z
    .object({
      inputTokens: z.number().optional(),
      outputTokens: z.number().optional(),
      cachedInputTokens: z.number().optional(),
    })
    .optional(),
  /**
   * Set when an app's view wrote this message and the chat sent it as the person's (a chat whose
   * app messages `submit`): which card, of which source, under which title. The model sees it as
   * the person's message; the person should see that the app wrote it.
   */
  fromApp: z.object({ instanceId: z.string(), source: z.string(), title: z.string() }).optional(),
  createdAt: z.number(),
});

/** A message of a conversation. */
export type ChatMessage = z.infer<typeof messageSchema>;

/** A card's saved descriptor (seed-behaviours 1.4): never the page's HTML. */
export const cardDescriptorSchema = z.object({
  instanceId: z.string(),
  conversationId: z.string().nullable(),
  /** The chat that owns the card, or null (panes; hand-built cards of a session with several chats). */
  chatId: z.string().nullable(),
  kind: z.enum(["card", "pane"]),
  source: z.string(),
  tool: z.string(),
  arguments: jsonObjectSchema,
  /** The full MCP result of the opening call, or null when it failed or was stopped. */
  result: jsonObjectSchema.nullable(),
  /** Why the opening call has no result, when it has none. */
  cancelled: z.string().optional(),
  title: z.string(),
  /** True when a check (`onAppCall`) applied to the card's page calls when it was opened. */
  checked: z.boolean(),
  messageId: z.string().optional(),
  /** The model tool call that opened the card (live cards; a saved card's part carries it too). */
  toolCallId: z.string().optional(),
  createdAt: z.number(),
  closed: z.boolean().optional(),
  /**
   * True while the model is still writing the opening call's arguments: `arguments` holds the
   * best guess so far, `card:input-partial` brings newer guesses and `card:input` the final ones.
   * Absent once the arguments are final (and for cards whose arguments never streamed).
   */
  inputStreaming: z.boolean().optional(),
});

/** A card's saved descriptor. */
export type CardDescriptor = z.infer<typeof cardDescriptorSchema>;

/** A conversation in the person's list. */
export const conversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  imported: z.boolean(),
});

/** A conversation in the person's list. */
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/**
 * One tool a chat offers the model: the name the model is given and the tool it stands for. The
 * model name differs from the tool's own name when that name is one some provider refuses, or
 * when another source of the chat offers a tool of the same name.
 */
export const chatToolSchema = z.object({
  /** The name the model is given (unique in the chat, accepted by every provider). */
  modelName: z.string(),
  /** The tool's own name on its source. */
  name: z.string(),
  source: z.string(),
  title: z.string().optional(),
  /** Why the model name differs from the tool's name, in a sentence for the person. */
  renamed: z.string().optional(),
});

/** One tool a chat offers the model. */
export type ChatTool = z.infer<typeof chatToolSchema>;

/** A chat of the session, as the browser lays it out. */
export const chatInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** What app messages do in this chat. */
  messages: z.enum(["compose", "submit", "ignore"]),
  /** Whether the model is told what the open cards show. */
  context: z.boolean(),
});

/** A chat of the session. */
export type ChatInfo = z.infer<typeof chatInfoSchema>;

/** Everything the browser needs to show a conversation. */
export const conversationSnapshotSchema = z.object({
  conversation: conversationSummarySchema,
  messages: z.array(messageSchema),
  cards: z.array(cardDescriptorSchema),
  /** Turns still running in this session, by chat id. */
  running: z.array(z.string()),
});

/** Everything the browser needs to show a conversation. */
export type ConversationSnapshot = z.infer<typeof conversationSnapshotSchema>;

/** What the browser learns when its socket is ready. */
export const sessionSnapshotSchema = z.object({
  sessionId: z.string(),
  user: z.object({ id: z.string(), name: z.string().optional() }).nullable(),
  chats: z.array(chatInfoSchema),
  panes: z.array(cardDescriptorSchema),
  conversations: z.array(conversationSummarySchema),
  current: conversationSnapshotSchema.nullable(),
  model: z.string(),
});

/** What the browser learns when its socket is ready. */
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;

/**
 * The powerful permissions a view may ask for (`_meta.ui.permissions` keys). A card gets one only
 * after the person said yes to it for the card's source; the browser sends the granted ones with
 * `card:attach`, and only those reach the sandbox's `allow` attribute.
 */
export const pagePermissionNames = [
  "camera",
  "microphone",
  "geolocation",
  "clipboardWrite",
] as const;

/** One of {@link pagePermissionNames}. */
export type PagePermissionName = (typeof pagePermissionNames)[number];

/** The view's page, ready for the sandbox, in the reply to `card:attach`. */
export const cardPageSchema = z.object({
  html: z.string(),
  csp: jsonObjectSchema.optional(),
  permissions: jsonObjectSchema.optional(),
  prefersBorder: z.boolean().optional(),
  /** The origin of this card's sandbox (one per source). */
  sandboxOrigin: z.string(),
  /** The proxy page's URL on that origin, carrying the validated CSP. */
  proxyUrl: z.string(),
});

/** Reply to `card:attach` (seed-behaviours 1.4). */
export const attachReplySchema = z.object({
  instanceId: z.string(),
  title: z.string(),
  source: z.string(),
  page: cardPageSchema,
  tool: toolInfoSchema,
  toolInput: jsonObjectSchema,
  /**
   * True while the model is still writing the arguments: `toolInput` is then only the best guess
   * so far, and the final arguments follow in `card:input`.
   */
  inputStreaming: z.boolean().optional(),
  toolResult: jsonObjectSchema.nullable(),
  /** Why there is no result (the call failed or was stopped); the page gets `tool-cancelled`. */
  cancelled: z.string().nullable(),
  /** Names of the source's tools the page may call. */
  appTools: z.array(z.string()),
  restored: z.boolean(),
  /** When the card last reported its model context, if it has. */
  reportedAt: z.number().nullable(),
  /**
   * This page load's generation: every attach starts a newer one. The browser sends it back with
   * `card:post-message` and `card:update-context`, and only the newest load's are used
   * (seed-behaviours 1.6).
   */
  generation: z.number().int().optional(),
});

/** Reply to `card:attach`. */
export type AttachReply = z.infer<typeof attachReplySchema>;

/** A question to the person about a card's tool call (`call.ask()`). */
export const approvalRequestSchema = z.object({
  approvalId: z.string(),
  instanceId: z.string(),
  chatId: z.string().nullable(),
  title: z.string(),
  source: z.string(),
  tool: z.string(),
  arguments: jsonObjectSchema,
  annotations: toolAnnotationsSchema.optional(),
  question: z.string().optional(),
  createdAt: z.number(),
});

/** A question to the person about a card's tool call. */
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** The person's answers to an approval request. */
export const approvalDecisions = [
  "allow-once",
  "allow-card",
  "allow-conversation",
  "refuse",
] as const;

/** One of {@link approvalDecisions}. */
export type ApprovalDecision = (typeof approvalDecisions)[number];
