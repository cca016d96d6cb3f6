import { idSchema } from "@mcp-chat-host/protocol";

const prefix = "#/c/";

/**
 * The conversation id a URL hash names (`#/c/<id>`).
 *
 * @param hash - `location.hash`.
 * @returns the id, or null when the hash names none or the id is not a valid id.
 */
export function conversationIdFromHash(hash: string): string | null {
  if (!hash.startsWith(prefix)) return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(prefix.length));
  } catch {
    return null;
  }
  return idSchema.safeParse(id).success ? id : null;
}

/**
 * The hash naming a conversation.
 *
 * @param conversationId - the id, or null for none.
 * @returns `#/c/<id>`, or the empty string.
 */
export function hashForConversation(conversationId: string | null): string {
  return conversationId === null ? "" : `${prefix}${encodeURIComponent(conversationId)}`;
}

/**
 * Puts the open conversation in the address bar, so a reload reopens it. Replaces the history
 * entry instead of adding one: switching conversations should not fill the back button.
 *
 * @param conversationId - the open conversation, or null.
 */
export function writeConversationHash(conversationId: string | null): void {
  if (conversationIdFromHash(window.location.hash) === conversationId) return;
  const url = `${window.location.pathname}${window.location.search}${hashForConversation(conversationId)}`;
  window.history.replaceState(window.history.state, "", url);
}
