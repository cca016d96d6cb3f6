/**
 * The chat a card belongs to: its saved owner when that is
 * a string; else the session's only chat, when there is exactly one; else none. A card built by
 * hand therefore belongs to the only chat, or to no chat once there are two or more.
 *
 * The owner is returned even when no chat of that key is registered (a restored card from another
 * session's chat); callers compare it with their own key, so such a card reaches no chat.
 *
 * @param owner - the card's saved owner, or null.
 * @param chatKeys - the keys of the chats registered in the session.
 * @returns the chat key, or null.
 */
export function cardChatKey(owner: string | null, chatKeys: readonly string[]): string | null {
  if (typeof owner === "string") return owner;
  if (chatKeys.length === 1) return chatKeys[0] ?? null;
  return null;
}
