import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
import type { JSONValue } from "@ai-sdk/provider";
import type { AssistantContent, ModelMessage, ToolContent } from "ai";
import { modelOutputFor } from "../model/tool-outcome";

/**
 * Turns a chat's stored messages into the model's history.
 *
 * Cards are the browser's business and are left out. A tool call whose result was never stored
 * (a reply cut by a crash or a stop) is left out too, because providers refuse an unanswered call.
 *
 * @param messages - the chat's stored messages, oldest first.
 * @returns messages for the AI SDK, in order.
 */
export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const history: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = textOf(message.parts);
      if (text.length > 0) history.push({ role: "user", content: text });
      continue;
    }
    history.push(...assistantTurn(message.parts));
  }
  return history;
}

/** The text parts of a message, joined. */
export function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is Extract<MessagePart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("");
}

function assistantTurn(parts: readonly MessagePart[]): ModelMessage[] {
  const answered = new Set(
    parts.filter((part) => part.type === "tool-result").map((part) => part.toolCallId),
  );
  const out: ModelMessage[] = [];
  let assistant: Exclude<AssistantContent, string> = [];
  let tool: ToolContent = [];
  const flushAssistant = () => {
    if (assistant.length > 0) out.push({ role: "assistant", content: assistant });
    assistant = [];
  };
  const flushTool = () => {
    if (tool.length > 0) out.push({ role: "tool", content: tool });
    tool = [];
  };
  for (const part of parts) {
    switch (part.type) {
      case "text":
        if (part.text.length === 0) break;
        flushTool();
        assistant.push({ type: "text", text: part.text });
        break;
      case "tool-call":
        if (!answered.has(part.toolCallId)) break;
        flushTool();
        assistant.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName: part.name,
          input: part.arguments ?? {},
        });
        break;
      case "tool-result":
        flushAssistant();
        tool.push({
          type: "tool-result",
          toolCallId: part.toolCallId,
          toolName: part.name,
          output: modelOutputFor({ value: part.value as JSONValue, isError: part.isError }),
        });
        break;
      case "card":
        break;
    }
  }
  flushAssistant();
  flushTool();
  return out;
}
