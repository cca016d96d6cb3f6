// Conversations, chats and the snapshots the browser lays them out from.
import { z } from "zod";
import { cardDescriptorSchema } from "./card-records";
import { messageSchema } from "./message-records";

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
  /**
   * Most card views the page keeps live at once (the configuration's `host.liveViews`); the
   * others show a light stand-in until scrolled near. Absent: the page's default.
   */
  liveViews: z.number().int().min(1).optional(),
});

/** What the browser learns when its socket is ready. */
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
