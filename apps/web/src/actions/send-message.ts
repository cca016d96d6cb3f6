import { limits } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useComposerStore } from "../state/composer-store";

const composer = useComposerStore.getState;

/**
 * Sends a chat's input box as the person's message (`message:send`). The text stays in the box
 * until the server acknowledged it, so a failed send loses nothing; a retry of the same text
 * reuses the same client id, so a send that did reach the server is not stored twice.
 *
 * @param socket - the page's socket.
 * @param chatId - the chat.
 * @param newId - makes a client id (injected by tests).
 * @returns true when the server stored the message.
 */
export async function sendMessage(
  socket: HostSocket,
  chatId: string,
  newId: () => string = () => crypto.randomUUID(),
): Promise<boolean> {
  const text = (composer().texts[chatId] ?? "").trim();
  if (text === "" || composer().sending[chatId] === true) return false;
  if (text.length > limits.maxMessageChars) {
    composer().setError(
      chatId,
      `The message is longer than ${limits.maxMessageChars} characters; shorten it, then send it again.`,
    );
    return false;
  }
  const pending = composer().pending[chatId];
  const clientId = pending?.text === text ? pending.clientId : `m-${newId()}`;
  composer().setPending(chatId, { text, clientId });
  composer().setSending(chatId, true);
  composer().setError(chatId, null);
  const ack = await request(socket, "message:send", { chatId, text, clientId });
  composer().setSending(chatId, false);
  if (!ack.ok) {
    if (!ack.error.retryable) composer().setPending(chatId, undefined);
    composer().setError(
      chatId,
      `Your message was not sent: ${ack.error.message} Your text is still in the box.`,
    );
    return false;
  }
  composer().setPending(chatId, undefined);
  // Only clear what was sent: the person may have kept typing while it went out.
  if ((composer().texts[chatId] ?? "").trim() === text) composer().setText(chatId, "");
  return true;
}

/**
 * Stops a chat's running reply (`turn:stop`).
 *
 * @returns true when the server stopped a turn.
 */
export async function stopTurn(socket: HostSocket, chatId: string): Promise<boolean> {
  const ack = await request(socket, "turn:stop", { chatId });
  if (!ack.ok) {
    composer().setError(chatId, `The reply could not be stopped: ${ack.error.message}`);
    return false;
  }
  return ack.value.stopped;
}
