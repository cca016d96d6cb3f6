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

/**
 * How many messages a conversation's snapshot carries: its latest ones. The browser asks for the
 * earlier ones, a page of this many at a time, when the person scrolls up to them
 * (`conversation:messages`).
 */
export const conversationPageMessages = 40;

/** The most messages one `conversation:messages` request may ask for. */
export const maxConversationPageMessages = 200;

/**
 * Everything the browser needs to show a conversation: its latest messages (at most
 * {@link conversationPageMessages}), the cards they show and the cards that belong to no message.
 */
export const conversationSnapshotSchema = z.object({
  conversation: conversationSummarySchema,
  /** The latest messages, in `seq` order. */
  messages: z.array(messageSchema),
  /** The cards of those messages, and every card that belongs to no message. */
  cards: z.array(cardDescriptorSchema),
  /** True when the conversation has messages before the first one here. */
  earlier: z.boolean(),
  /** Turns still running in this session, by chat id. */
  running: z.array(z.string()),
});

/** Everything the browser needs to show a conversation. */
export type ConversationSnapshot = z.infer<typeof conversationSnapshotSchema>;

/**
 * A page of a conversation's earlier messages (`conversation:messages`): the messages just before
 * the asked-for `seq`, in `seq` order, and the cards they show.
 */
export const conversationPageSchema = z.object({
  messages: z.array(messageSchema),
  cards: z.array(cardDescriptorSchema),
  /** True when the conversation has messages before the first one here. */
  earlier: z.boolean(),
});

/** A page of a conversation's earlier messages. */
export type ConversationPage = z.infer<typeof conversationPageSchema>;

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
  /**
   * True when the person signed in with the organisation's OpenID provider and can sign out
   * (`POST /auth/logout`); absent in the other sign-in modes.
   */
  signOut: z.boolean().optional(),
});

/** What the browser learns when its socket is ready. */
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
