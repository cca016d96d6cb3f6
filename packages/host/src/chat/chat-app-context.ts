import { cardChatKey } from "../session/card-chat-key";
import type { CardRegistry } from "../session/card-registry";
import { buildAppContext } from "../context/context-relay";

/**
 * The text the model is (or would be) given about a chat's open cards: each card counts for the
 * chat it belongs to (its saved owner, else the session's only chat).
 *
 * @param cards - the session's live cards.
 * @param chatKeys - the keys of the session's chats.
 * @param chatKey - the chat asked about.
 * @returns the text, or null when no open card of the chat has reported.
 */
export function chatAppContext(
  cards: CardRegistry,
  chatKeys: readonly string[],
  chatKey: string,
): string | null {
  return buildAppContext(
    cards.contextCards((owner) => cardChatKey(owner, chatKeys)),
    chatKey,
  );
}
