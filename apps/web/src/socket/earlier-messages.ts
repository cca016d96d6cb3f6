import { useHostStore } from "../state/host-store";
import { oldestLoadedSeq } from "../state/messages-slice";
import type { HostSocket } from "./host-socket";
import { request } from "./request";

/**
 * Loads the page of the open conversation's messages before the oldest one loaded
 * (`conversation:messages`) and puts it before them. Does nothing while a page is out, when
 * nothing earlier is left or no conversation is open. Never throws: a failure is kept in
 * `earlierMessages.error` for the list to show, with a way to try again.
 *
 * @param socket - the page's socket.
 */
export async function loadEarlierMessages(socket: HostSocket): Promise<void> {
  const state = useHostStore.getState();
  const conversationId = state.currentConversationId;
  const before = oldestLoadedSeq(state);
  if (conversationId === null || before === null) return;
  if (!state.earlierMessages.more || state.earlierMessages.loading) return;
  state.earlierRequested();
  const ack = await request(socket, "conversation:messages", { conversationId, before });
  const now = useHostStore.getState();
  if (now.currentConversationId !== conversationId) return;
  if (ack.ok) now.earlierArrived(conversationId, before, ack.value);
  else now.earlierFailed(`Earlier messages could not be loaded: ${ack.error.message}`);
}
