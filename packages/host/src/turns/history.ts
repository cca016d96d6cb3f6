import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
import type { JSONValue } from "@ai-sdk/provider";
import type { AssistantContent, ModelMessage, ToolContent } from "ai";
import { modelOutputFor, refusalOutcome } from "../model/tool-outcome";
import { framedText, personContent } from "./person-content";

/** What the model is told at the end of a reply the person stopped. */
export const STOPPED_REPLY_MARK = "[The person stopped this reply before it was finished.]";

/**
 * Turns a chat's stored messages into the model's history, telling the truth about each reply:
 *
 * - a complete reply: its text and its answered tool calls, as they happened;
 * - a stopped reply: the same, then {@link STOPPED_REPLY_MARK}, so the model knows it was cut off;
 * - a failed or interrupted reply (`error`, `interrupted`, or `streaming` left by a crash): only
 *   its answered tool calls (they ran); its partial text is not an answer and is left out;
 * - a person's message the model never answered is sent once: when the person sent the same text
 *   again (or pressed Retry), the earlier copy is left out.
 *
 * A person's message carries the resources they attached (see `person-content.ts`).
 * Cards are the browser's business and are left out. A tool call without an outcome (its reply
 * ended while its input streamed or while it ran) is left out too, because providers refuse an
 * unanswered call. Tool calls carry the name the
 * model was given (`modelName`), so a renamed tool's call matches what the model knows.
 *
 * @param messages - the chat's stored messages, oldest first.
 * @returns messages for the AI SDK, in order.
 */
export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const history: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = textOf(message.parts);
      if (text.length === 0 && !message.parts.some((part) => part.type === "resource")) continue;
      const content = personContent(message.parts, message.fromApp);
      dropUnansweredCopy(history, framedText(content, text));
      history.push({ role: "user", content });
      continue;
    }
    history.push(...assistantTurn(message));
  }
  return history;
}

/**
 * The history for a new turn: {@link toModelMessages}, without an unanswered earlier copy of the
 * person's new message (a message sent again after a failed reply reaches the model once).
 *
 * @param messages - the chat's stored messages before the person's new one.
 * @param text - the person's new message.
 */
export function historyForTurn(messages: readonly ChatMessage[], text: string): ModelMessage[] {
  const history = toModelMessages(messages);
  dropUnansweredCopy(history, text);
  return history;
}

/** Removes the trailing user messages with this text that nothing answered. */
function dropUnansweredCopy(history: ModelMessage[], text: string): void {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const entry = history[index];
    if (entry?.role !== "user") return;
    // A message with attachments opens with its text part (see person-content.ts).
    const written =
      typeof entry.content === "string"
        ? entry.content
        : entry.content[0]?.type === "text"
          ? entry.content[0].text
          : undefined;
    if (written === text) history.splice(index, 1);
  }
}

/** The text parts of a message, joined. */
function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is Extract<MessagePart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("");
}

function assistantTurn(message: ChatMessage): ModelMessage[] {
  const { parts } = message;
  const failed = message.status !== "complete" && message.status !== "stopped";
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
        if (part.text.length === 0 || failed) break;
        flushTool();
        assistant.push({ type: "text", text: part.text });
        break;
      case "tool": {
        const output = toolOutput(part);
        if (output === null) break;
        const toolName = part.modelName ?? part.name;
        // The call closes the assistant's content and its result opens the tool's, as the
        // model's step read it.
        flushTool();
        assistant.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName,
          input: part.input ?? {},
        });
        flushAssistant();
        tool.push({ type: "tool-result", toolCallId: part.toolCallId, toolName, output });
        break;
      }
      case "card":
      case "resource":
        break;
    }
  }
  if (message.status === "stopped" && (out.length > 0 || assistant.length > 0 || tool.length > 0)) {
    flushTool();
    markStopped(assistant);
  }
  flushAssistant();
  flushTool();
  return out;
}

/**
 * What the model was told of a tool part's call: its output, its error, or its refusal (the
 * refusal as "Tool call rejected. <reason>", as the model read it then).
 *
 * @returns the output, or null for a call without an outcome (providers refuse an unanswered call).
 */
function toolOutput(part: Extract<MessagePart, { type: "tool" }>) {
  switch (part.state) {
    case "output-available":
      return modelOutputFor({ value: (part.output ?? null) as JSONValue, isError: false });
    case "output-error":
      return modelOutputFor({ value: part.errorText ?? "The tool call failed.", isError: true });
    case "output-denied":
      return modelOutputFor(refusalOutcome(part.errorText ?? "The host refused it."));
    default:
      return null;
  }
}

/**
 * Ends a stopped reply with {@link STOPPED_REPLY_MARK} as a paragraph of its own. Providers join
 * an assistant message's text parts with nothing between them, so a reply stopped mid-word would
 * otherwise read `…a long, sl[The person stopped…]`: the mark joins the last text, after a blank
 * line.
 */
function markStopped(assistant: Exclude<AssistantContent, string>): void {
  const last = assistant.at(-1);
  if (last?.type === "text") {
    assistant[assistant.length - 1] = {
      ...last,
      text: `${last.text.trimEnd()}\n\n${STOPPED_REPLY_MARK}`,
    };
  } else {
    assistant.push({ type: "text", text: STOPPED_REPLY_MARK });
  }
}
