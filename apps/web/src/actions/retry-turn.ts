import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";

/**
 * Runs a chat's last turn again after its reply failed, was stopped or was interrupted
 * (`turn:retry`): the server adds no message, and a new reply follows. A refusal shows as a
 * notice, since the button that asked goes away with the reply it belonged to.
 *
 * @param socket - the page's socket.
 * @param chatId - the chat.
 * @param messageId - the reply to run again (the chat's last one).
 * @returns the new reply's id, or null when the server refused or did not answer.
 */
export async function retryTurn(
  socket: HostSocket,
  chatId: string,
  messageId: string,
): Promise<string | null> {
  const ack = await request(socket, "turn:retry", { chatId, messageId });
  if (!ack.ok) {
    useHostStore
      .getState()
      .addNotice("error", `The reply could not be run again: ${ack.error.message}`);
    return null;
  }
  return ack.value.messageId;
}
