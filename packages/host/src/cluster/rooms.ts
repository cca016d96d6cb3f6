import type { ServerEventName, ServerEvents } from "@mcp-chat-host/protocol";

/** The room every tab of a user joins (the conversation list). */
export function userRoom(userId: string): string {
  return `user:${userId}`;
}

/** The room a tab joins while it shows a conversation (its messages, cards and turns). */
export function conversationRoom(conversationId: string): string {
  return `conversation:${conversationId}`;
}

/**
 * The events about a conversation's content. Every tab showing the conversation gets them, on
 * whichever node it is, and only through the conversation's room (never also directly), so no
 * tab gets one twice.
 */
export const conversationEvents: ReadonlySet<ServerEventName> = new Set<ServerEventName>([
  "message:created",
  "message:chunk",
  "message:updated",
  "card:opened",
  "turn:state",
]);

/** The conversation an event names itself, if it does. */
export function conversationOf<E extends ServerEventName>(
  event: E,
  payload: ServerEvents[E],
): string | null {
  const value = payload as {
    conversationId?: unknown;
    message?: { conversationId?: unknown };
    card?: { conversationId?: unknown };
  };
  const named =
    value.conversationId ?? value.message?.conversationId ?? value.card?.conversationId ?? null;
  return typeof named === "string" ? named : null;
}

/** The card an event is about, if it is about one. */
export function instanceOf<E extends ServerEventName>(
  event: E,
  payload: ServerEvents[E],
): string | null {
  const value = payload as { instanceId?: unknown; card?: { instanceId?: unknown } };
  const named = value.instanceId ?? value.card?.instanceId ?? null;
  return typeof named === "string" ? named : null;
}
