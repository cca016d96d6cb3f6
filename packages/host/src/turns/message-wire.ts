import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
import { isStoreError } from "../store/store-error";
import { saveMessageAction } from "../store/store-rules";
import type { MessageRecord } from "../store/host-store";

/** A stored message as the browser sees it. */
export function messageToWire(message: MessageRecord): ChatMessage {
  const wire: ChatMessage = {
    id: message.id,
    conversationId: message.conversationId,
    chatId: message.chatId,
    seq: message.seq,
    role: message.role,
    parts: message.parts as MessagePart[],
    status: message.status,
    createdAt: message.createdAt,
  };
  if (message.error !== undefined) wire.error = message.error;
  if (message.retryable !== undefined) wire.retryable = message.retryable;
  if (message.usage !== undefined) wire.usage = message.usage;
  if (message.fromApp !== undefined) wire.fromApp = { ...message.fromApp };
  return wire;
}

/**
 * Rethrows a storage failure in the words of a message that was not saved: before the person's
 * message is written, that is what they need to know (and the message is not acknowledged).
 */
export function asMessageNotSaved(error: unknown): never {
  // The store that threw maps its own cause again (a Postgres error read as SQLite's would
  // show the driver's text, with the server's address in it).
  if (isStoreError(error)) throw error.restated(saveMessageAction);
  throw error;
}
