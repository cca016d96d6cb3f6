import type { ConversationSnapshot, SessionSnapshot } from "@mcp-chat-host/protocol";
import { teardownCards } from "./page-cards";
import { writeConversationHash } from "../url/conversation-hash";
import { useHostStore } from "./host-store";

/**
 * Shows a conversation (or none): replaces its messages, tool activity and cards, marks it open
 * and puts it in the address bar. The session's panes stay.
 *
 * @param snapshot - the conversation, or null to show an empty one (the next message creates it).
 */
export function applyConversationSnapshot(snapshot: ConversationSnapshot | null): void {
  useHostStore.getState().applyConversationSnapshot(snapshot);
  writeConversationHash(snapshot?.conversation.id ?? null);
}

/**
 * Replaces the page's whole state with the server's snapshot (after `session:hello`, including
 * after every reconnect: nothing the page held before can be duplicated), and puts the open
 * conversation in the address bar.
 *
 * @param snapshot - the session snapshot.
 */
export function applySessionSnapshot(snapshot: SessionSnapshot): void {
  useHostStore.getState().applySessionSnapshot(snapshot);
  writeConversationHash(snapshot.current?.conversation.id ?? null);
}

/**
 * Before the page shows another conversation: tears down the live cards of the one it leaves
 * (`ui/resource-teardown`, then `card:teardown` with `conversation-closed`), since React would
 * remove their frames at once, before a view could answer.
 *
 * @param nextConversationId - the conversation about to be shown (null: none).
 * @returns when the cards are torn down (each view's wait is bounded); never rejects.
 */
export async function leaveConversation(nextConversationId: string | null): Promise<void> {
  const current = useHostStore.getState().currentConversationId;
  if (current === null || current === nextConversationId) return;
  await teardownCards({ reason: "conversation-closed", conversationId: current });
}
