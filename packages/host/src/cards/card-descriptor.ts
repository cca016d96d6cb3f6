// A card as each side knows it: the store's record, the browser's descriptor, and the tool
// definition its page and its gate see.
import type { AttachReply, CardDescriptor } from "@mcp-chat-host/protocol";
import type { Tool } from "@modelcontextprotocol/client";
import type { SourceTool } from "../sources/source";
import type { CardRecord, JsonObject, NewCard } from "../store/host-store";
import type { LiveCard } from "./card-registry";

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

/** A source's tool as MCP defines it: what a page is told at attach and a gate's hook sees. */
export function toolDefinition(tool: SourceTool): AttachReply["tool"] & Tool {
  const info: AttachReply["tool"] & Tool = {
    name: tool.name,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
  };
  if (tool.title !== undefined) info.title = tool.title;
  if (tool.description !== undefined) info.description = tool.description;
  if (tool.annotations !== undefined) info.annotations = tool.annotations;
  if (tool.meta !== undefined) info._meta = tool.meta;
  return info;
}
