// The events the browser sends: their names and the schemas their payloads must pass.
import { z } from "zod";
import { approvalDecisions } from "./approval-records";
import { pagePermissionNames } from "./card-records";
import { contentBlockSchema, idSchema, jsonObjectSchema } from "./common-records";
import { maxConversationPageMessages } from "./conversation-records";
import { limits } from "./limits";
import { elicitationActions, resourceAttachmentSchema } from "./server-records";

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
  /**
   * A page of the conversation's messages before `before` (a message's `seq`): the snapshot
   * carries only the latest ones, the browser asks for earlier ones as the person scrolls up.
   */
  "conversation:messages": z
    .object({
      conversationId: idSchema,
      before: z.number().int().nonnegative(),
      /** At most this many messages, 1 to 200 (default: the snapshot's page size, 40). */
      limit: z.number().int().min(1).max(maxConversationPageMessages).optional(),
    })
    .strict(),
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
      /** Resources of the chat's servers the person attached (read by the server, for the model). */
      attachments: z.array(resourceAttachmentSchema).max(limits.maxAttachments).optional(),
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
       * The permissions the person granted the card's source; only these of
       * the view's declared ones reach the sandbox. Absent: none.
       */
      permissions: z.array(z.enum(pagePermissionNames)).max(pagePermissionNames.length).optional(),
      /**
       * Hashes (`page.viewHash`) of the card's source's pages the browser already holds: when the
       * card's page is one of them, the reply leaves out its HTML.
       */
      views: z.array(z.string().min(1).max(128)).max(limits.maxKnownViews).optional(),
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
  /** The person's MCP servers and where each stands (the servers panel). */
  "servers:list": z.object({}).strict(),
  /**
   * Starts signing in to a server that asks for authorization: answered with the authorization
   * server's page, which the tab opens in a popup (or `connected` when no sign-in was needed).
   */
  "server:connect": z.object({ name: z.string().min(1).max(200) }).strict(),
  /** Forgets (and, where the server offers it, revokes) the person's grant for a server. */
  "server:disconnect": z.object({ name: z.string().min(1).max(200) }).strict(),
  /**
   * Whether the person may add servers of their own (connectors) here, and the address patterns
   * the operator allows (`host.connectors`).
   */
  "connectors:policy": z.object({}).strict(),
  /** Adds a remote MCP server for this person only; answered with its status (often `needs-sign-in`). */
  "connector:add": z.object({ url: z.string().min(1).max(2_000) }).strict(),
  /** Removes one of the person's own servers: its grant is revoked and forgotten, its tools leave. */
  "connector:remove": z.object({ name: z.string().min(1).max(200) }).strict(),
  /** The person's answer to a server's question (`elicitation:request`). */
  "elicitation:answer": z
    .object({
      elicitationId: idSchema,
      action: z.enum(elicitationActions),
      /** For `accept` of a form: the values, checked against the requested schema. */
      content: capped(jsonObjectSchema).optional(),
    })
    .strict(),
  /** The prompts a chat's servers offer (slash commands in the composer). */
  "prompts:list": z.object({ chatId: idSchema }).strict(),
  /** Gets one prompt with its arguments; answered with the text for the composer. */
  "prompt:get": z
    .object({
      chatId: idSchema,
      source: z.string().min(1).max(200),
      name: z.string().min(1).max(200),
      arguments: z.record(z.string().max(200), z.string().max(limits.maxMessageChars)),
    })
    .strict(),
  /** The resources a chat's servers offer, which the person can attach to a message. */
  "resources:list": z.object({ chatId: idSchema }).strict(),
} as const;

/** Names of the events the browser sends. */
export type ClientEventName = keyof typeof clientEventSchemas;

/** The payload of a browser event, after validation. */
export type ClientPayload<E extends ClientEventName> = z.infer<(typeof clientEventSchemas)[E]>;
