import { limits } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { composerOf } from "../state/composer-slice";
import { useHostStore } from "../state/host-store";

const store = useHostStore.getState;

/**
 * Sends a chat's input box as the person's message (`message:send`). The text stays in the box
 * until the server acknowledged it, so a failed send loses nothing; a retry of the same text
 * reuses the same client id, so a send that did reach the server is not stored twice. The
 * resources attached go with it (the server reads them) and are let go once it is stored.
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
  const box = composerOf(store(), chatId);
  const text = box.text.trim();
  if (text === "" || box.sending) return false;
  if (text.length > limits.maxMessageChars) {
    store().patchComposer(chatId, {
      error: `The message is longer than ${limits.maxMessageChars} characters; shorten it, then send it again.`,
    });
    return false;
  }
  const clientId = box.pending?.text === text ? box.pending.clientId : `m-${newId()}`;
  store().patchComposer(chatId, { pending: { text, clientId }, sending: true, error: null });
  const attachments = box.attachments.map(({ source, uri }) => ({ source, uri }));
  const ack = await request(socket, "message:send", {
    chatId,
    text,
    clientId,
    ...(attachments.length === 0 ? {} : { attachments }),
  });
  if (!ack.ok) {
    store().patchComposer(chatId, {
      sending: false,
      pending: ack.error.retryable ? { text, clientId } : null,
      error: `Your message was not sent: ${ack.error.message} Your text is still in the box.`,
    });
    return false;
  }
  // Only clear what was sent: the person may have kept typing while it went out.
  const sent = composerOf(store(), chatId).text.trim() === text;
  store().patchComposer(chatId, { sending: false, pending: null, attachments: [] });
  if (sent) store().setComposerText(chatId, "");
  return true;
}

export async function stopTurn(socket: HostSocket, chatId: string): Promise<boolean> {
  const ack = await request(socket, "turn:stop", { chatId });
  if (!ack.ok) {
    store().patchComposer(chatId, {
      error: `The reply could not be stopped: ${ack.error.message}`,
    });
    return false;
  }
  return ack.value.stopped;
}
