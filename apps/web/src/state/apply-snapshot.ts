import type { ConversationSnapshot, SessionSnapshot } from "@mcp-chat-host/protocol";
import { teardownCards } from "../cards";
import { writeConversationHash } from "../url/conversation-hash";
import { useCardsStore } from "./cards-store";
import { useConversationsStore } from "./conversations-store";
import { useMessagesStore } from "./messages-store";
import { useSessionStore } from "./session-store";
import { useToolsStore } from "./tools-store";

/** Shows a conversation's messages and tool rows, marks it open and puts it in the address bar. */
function showConversation(snapshot: ConversationSnapshot | null): void {
  const messages = snapshot?.messages ?? [];
  useMessagesStore
    .getState()
    .replace(snapshot?.conversation.id ?? null, messages, snapshot?.running ?? []);
  useToolsStore.getState().replaceFromMessages(messages);
  const conversations = useConversationsStore.getState();
  if (snapshot !== null) conversations.upsert(snapshot.conversation);
  conversations.setCurrent(snapshot?.conversation.id ?? null);
  writeConversationHash(snapshot?.conversation.id ?? null);
}

/**
 * Shows a conversation (or none): replaces its messages, tool rows and cards, marks it open and
 * puts it in the address bar. The session's panes stay.
 *
 * @param snapshot - the conversation, or null to show an empty one (the next message creates it).
 */
export function applyConversationSnapshot(snapshot: ConversationSnapshot | null): void {
  useCardsStore.getState().replaceConversationCards(snapshot?.cards ?? []);
  showConversation(snapshot);
}

/**
 * Replaces the page's whole state with the server's snapshot (after `session:hello`, including
 * after every reconnect: nothing the page held before can be duplicated). Cards are replaced in
 * one step, so a card that stays is never missing for a moment (its live view would be torn down).
 *
 * @param snapshot - the session snapshot.
 */
export function applySessionSnapshot(snapshot: SessionSnapshot): void {
  useSessionStore.getState().applySnapshot(snapshot);
  useConversationsStore.getState().setList(snapshot.conversations);
  useCardsStore.getState().replace(snapshot.current?.cards ?? [], snapshot.panes);
  showConversation(snapshot.current);
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
  const current = useConversationsStore.getState().currentId;
  if (current === null || current === nextConversationId) return;
  await teardownCards({ reason: "conversation-closed", conversationId: current });
}
