// A conversation's stored messages and their parts.
import { z } from "zod";
import { toolPartStates } from "./reply-chunks";

/** One part of a stored message. */
export const messagePartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    /**
     * A model tool call and what became of it, in one part (the reply stream's tool part): its
     * input, its state, its output or why it has none, and the card it opened, if any.
     */
    type: z.literal("tool"),
    toolCallId: z.string(),
    /** The tool's own name on its source (what the person sees). */
    name: z.string(),
    /** The source (MCP server or app) the tool belongs to. */
    source: z.string().optional(),
    /** The name the model was given for the tool, when it differs from `name`. */
    modelName: z.string().optional(),
    state: z.enum(toolPartStates),
    input: z.unknown(),
    /** What the model got back (`output-available`). */
    output: z.unknown().optional(),
    /** Why the call has no output (`output-error`, `output-denied`), as a sentence. */
    errorText: z.string().optional(),
    /** The card the call opened (its view), shown in the part's place. */
    instanceId: z.string().optional(),
  }),
  z.object({
    /** A card no model tool call opened (shown by hand), at this point of the message. */
    type: z.literal("card"),
    instanceId: z.string(),
  }),
  z.object({
    /**
     * A server's resource the person attached to their message, as the server read it then
     * (`resources/read`): the model receives it with the message, as an embedded resource.
     */
    type: z.literal("resource"),
    /** The server (source) the resource belongs to. */
    source: z.string(),
    uri: z.string(),
    /** The resource's name, when the server gave one. */
    name: z.string().optional(),
    mimeType: z.string().optional(),
    /** A text resource's text. */
    text: z.string().optional(),
    /** A binary resource's bytes, base64-encoded. */
    blob: z.string().optional(),
  }),
]);

/**
 * One part of a stored message: text, a model tool call (with its card, if any), a card, or a
 * resource the person attached.
 */
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
