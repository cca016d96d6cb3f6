// A card as each side knows it: the store's record and the browser's descriptor.
import type { CardDescriptor } from "@mcp-chat-host/protocol";
import type { CardRecord, JsonObject, NewCard } from "../store/host-store";
import type { LiveCard } from "../session/card-registry";

/**
 * A stored card record as the browser sees it. Arguments still being written live only in
 * memory: a tab arriving meanwhile gets the live card's latest guess and the flag, so it waits
 * for `card:input`.
 *
 * @param record - the stored card.
 * @param live - the card live in the session, if it is.
 */
export function cardDescriptorOf(record: CardRecord, live: LiveCard | undefined): CardDescriptor {
  const descriptor: CardDescriptor = {
    instanceId: record.instanceId,
    conversationId: record.conversationId,
    chatId: record.chatId,
    kind: record.kind,
    source: record.source,
    tool: record.tool,
    arguments: record.arguments,
    result: record.result,
    title: record.title,
    checked: record.checked,
    createdAt: record.createdAt,
  };
  if (record.cancelled !== undefined) descriptor.cancelled = record.cancelled;
  if (record.messageId !== undefined) descriptor.messageId = record.messageId;
  if (record.closedAt !== undefined) descriptor.closed = true;
  if (live?.descriptor.inputStreaming === true) {
    descriptor.arguments = live.descriptor.arguments;
    descriptor.inputStreaming = true;
  }
  return descriptor;
}

/** What the store keeps of a card of a conversation (its streaming flag is never stored). */
export function cardRecordOf(descriptor: CardDescriptor & { conversationId: string }): NewCard {
  return {
    instanceId: descriptor.instanceId,
    conversationId: descriptor.conversationId,
    chatId: descriptor.chatId,
    kind: descriptor.kind,
    source: descriptor.source,
    tool: descriptor.tool,
    arguments: descriptor.arguments as JsonObject,
    result: descriptor.result as JsonObject | null,
    title: descriptor.title,
    checked: descriptor.checked,
    createdAt: descriptor.createdAt,
    ...(descriptor.cancelled === undefined ? {} : { cancelled: descriptor.cancelled }),
    ...(descriptor.messageId === undefined ? {} : { messageId: descriptor.messageId }),
  };
}
