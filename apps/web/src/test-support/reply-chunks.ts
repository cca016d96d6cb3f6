import type { ReplyChunk, ServerEvents } from "@mcp-chat-host/protocol";
import { cardDescriptor } from "./records";

/** A `message:chunk` of the reply "m1" of chat "chat" in "conv-1" (tests). */
export function chunkEvent(chunk: ReplyChunk, messageId = "m1"): ServerEvents["message:chunk"] {
  return { conversationId: "conv-1", chatId: "chat", messageId, chunk };
}

/**
 * A reply as the server streams it (tests): text, a call that opens a card while the model writes
 * its input in many deltas and then returns, more text, and a call refused before it ran.
 */
export const sampleReply: readonly ReplyChunk[] = [
  { type: "text-start", id: "text-1" },
  { type: "text-delta", id: "text-1", delta: "Let me ", offset: 0 },
  { type: "text-delta", id: "text-1", delta: "open notes.", offset: 7 },
  { type: "text-end", id: "text-1" },
  {
    type: "tool-input-start",
    toolCallId: "c1",
    toolName: "open-notes",
    source: "notes",
    modelName: "notes__open-notes",
    startedAt: 1_000,
  },
  {
    type: "data-card",
    toolCallId: "c1",
    card: cardDescriptor("host-1", { messageId: "m1", toolCallId: "c1", inputStreaming: true }),
  },
  { type: "tool-input-delta", toolCallId: "c1", input: { zone: "U" } },
  { type: "tool-input-delta", toolCallId: "c1", input: { zone: "UT" } },
  { type: "tool-input-delta", toolCallId: "c1", input: { zone: "UTC", note: "" } },
  { type: "tool-input-delta", toolCallId: "c1", input: { zone: "UTC", note: "hi" } },
  { type: "tool-input-available", toolCallId: "c1", input: { zone: "UTC", note: "hi" } },
  { type: "data-tool-progress", toolCallId: "c1", progress: 1, total: 2, message: "Half" },
  {
    type: "tool-output-available",
    toolCallId: "c1",
    output: { opened: true },
    cardResult: { content: [{ type: "text", text: "opened" }] },
    durationMs: 250,
  },
  { type: "text-start", id: "text-2" },
  { type: "text-delta", id: "text-2", delta: "Done.", offset: 18 },
  { type: "text-end", id: "text-2" },
  { type: "tool-input-start", toolCallId: "c2", toolName: "delete-all", startedAt: 2_000 },
  { type: "tool-input-available", toolCallId: "c2", input: {} },
  { type: "tool-output-denied", toolCallId: "c2", reason: "Not allowed." },
];

/** The parts of {@link sampleReply} once all of it is applied. */
export const sampleReplyParts = [
  { type: "text", text: "Let me open notes." },
  {
    type: "tool",
    toolCallId: "c1",
    name: "open-notes",
    source: "notes",
    modelName: "notes__open-notes",
    state: "output-available",
    input: { zone: "UTC", note: "hi" },
    output: { opened: true },
    instanceId: "host-1",
  },
  { type: "text", text: "Done." },
  {
    type: "tool",
    toolCallId: "c2",
    name: "delete-all",
    state: "output-denied",
    input: {},
    errorText: "Not allowed.",
  },
];
