import { reportText, type AppContentParams } from "../context/report-text";
import { cardChatKey } from "../session/card-chat-key";
import type { AppMessageMode } from "../session/chat";

/** The modes, for validating configuration. */
export const appMessageModes: readonly AppMessageMode[] = ["compose", "submit", "ignore"];

/** What routing needs to know about the card that posted the message. */
export interface AppMessageCard {
  /** The instance id (`host-…`). */
  readonly instanceId: string;
  /** Only cards post to a chat; a pane's messages are kept on the pane. */
  readonly kind: "card" | "pane";
  /** The saved owner (a chat key), or null for a card built by hand. */
  readonly owner: string | null;
  /** A closed card posts nothing. */
  readonly disposed: boolean;
}

/** Why a message reached no chat; stable, for logs and tests. */
export type AppMessageDropCode =
  "pane" | "closed" | "stale-page" | "no-chat" | "no-host" | "ignored" | "empty";

/** Where a card's message goes. */
export type AppMessageRoute =
  | { readonly action: "compose"; readonly chatKey: string; readonly text: string }
  | { readonly action: "submit"; readonly chatKey: string; readonly text: string }
  | { readonly action: "drop"; readonly code: AppMessageDropCode; readonly reason: string };

/** Input of {@link routeAppMessage}. */
export interface RouteAppMessageInput {
  /**
   * The mode, or the mode of each chat by key (each chat host has its own); `null` for a chat
   * that has no chat host (`mcpChatHost()` was not called for it).
   */
  readonly mode: AppMessageMode | ((chatKey: string) => AppMessageMode | null);
  /** The card that sent `ui/message`. */
  readonly card: AppMessageCard;
  /** The keys of the chats registered in the session, in registration order. */
  readonly chats: readonly string[];
  /** The `ui/message` params as the page sent them. */
  readonly params: AppContentParams | null | undefined;
  /**
   * False when the message came from an older load of the card's page (the card was re-attached
   * since); such a page no longer speaks for the card. Defaults to true.
   */
  readonly fromCurrentPage?: boolean;
}

/**
 * The text of an app message: its text blocks joined with `"\n"`, plus the JSON of
 * `structuredContent` if any (the same rule as a report).
 *
 * @param params - the `ui/message` params.
 * @returns the text, or null when it is empty (an empty message is ignored).
 */
export function appMessageText(params: AppContentParams | null | undefined): string | null {
  const text = reportText(params);
  return text === "" ? null : text;
}

/**
 * Decides where a card's `ui/message` goes: only a current, open card of kind `card` that belongs
 * to a chat of this session (its saved owner, else the only chat) posts, and only to that chat,
 * in that chat's mode.
 *
 * @param input - the mode, the card, the session's chats and the params.
 * @returns `compose` or `submit` with the chat key and text, or `drop` with a code and a reason
 *   (`no-host` is a mistake of the program that built the session: log it as a warning).
 */
export function routeAppMessage(input: RouteAppMessageInput): AppMessageRoute {
  const { card } = input;
  if (card.kind !== "card") {
    return drop("pane", "A pane's messages are kept on the pane; they go to no chat.");
  }
  if (card.disposed) return drop("closed", "The card is closed.");
  if (input.fromCurrentPage === false) {
    return drop("stale-page", "The message came from an earlier load of the card's page.");
  }
  const chatKey = cardChatKey(card.owner, input.chats);
  if (chatKey === null || !input.chats.includes(chatKey)) {
    return drop("no-chat", "The card belongs to no chat of this session.");
  }
  const mode = typeof input.mode === "function" ? input.mode(chatKey) : input.mode;
  if (mode === null) return drop("no-host", noHostReason(chatKey));
  if (mode === "ignore") return drop("ignored", `The chat "${chatKey}" ignores app messages.`);
  const text = appMessageText(input.params);
  if (text === null) return drop("empty", "The message has no text.");
  return mode === "submit"
    ? { action: "submit", chatKey, text }
    : { action: "compose", chatKey, text };
}

/**
 * What the developer reads when an app posts to a chat without a chat host: the message can't
 * reach the chat, and the fix is to attach a chat host to that chat.
 */
function noHostReason(chatKey: string): string {
  return `An app asked to post a message, but the chat "${chatKey}" has no chat host: call mcpChatHost(chat, sources) for this chat to route app messages.`;
}

function drop(code: AppMessageDropCode, reason: string): AppMessageRoute {
  return { action: "drop", code, reason };
}
