// Cards: the saved descriptor, the permissions a view may ask for, and the reply to `card:attach`.
import { z } from "zod";
import { jsonObjectSchema, toolInfoSchema } from "./common-records";

/**
 * A card's saved descriptor, kept with the conversation so the card can be attached again. It
 * never holds the page's HTML: a page may be hundreds of kilobytes, and it is read again on attach.
 */
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
  /**
   * The page's HTML document. Absent when the attach named this page's {@link viewHash} among
   * the views the browser already holds: the browser then uses its own copy.
   */
  html: z.string().optional(),
  /**
   * A hash of the page's HTML (sha256, base64url): the browser keeps the page under it and names
   * it in a later attach of the same source's cards, so each distinct page travels once.
   */
  viewHash: z.string().max(128).optional(),
  csp: jsonObjectSchema.optional(),
  permissions: jsonObjectSchema.optional(),
  prefersBorder: z.boolean().optional(),
  /** The origin of this card's sandbox (one per source). */
  sandboxOrigin: z.string(),
  /** The proxy page's URL on that origin, carrying the validated CSP. */
  proxyUrl: z.string(),
});

/** Reply to `card:attach`: what a browser needs to run a card's page, fresh or restored. */
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
   * `card:post-message` and `card:update-context`, and only the newest load's are used: a message
   * or model context from an earlier load of the page is dropped.
   */
  generation: z.number().int().optional(),
});

/** Reply to `card:attach`. */
export type AttachReply = z.infer<typeof attachReplySchema>;
