import type { HttpAnswer } from "../provider-api";
import {
  asArray,
  asRecord,
  asText,
  completeView,
  finishMessage,
  messageDraft,
  type RequestView,
  type ViewMessage,
} from "../request-view";
import { openaiInvalidRequest } from "./openai-errors";
import { checkOpenaiDuplicateNames, checkOpenaiToolName } from "./openai-tool-names";

function contentText(content: unknown): string[] {
  if (typeof content === "string") return content.length > 0 ? [content] : [];
  return asArray(content).flatMap((part) => {
    const record = asRecord(part);
    return record?.type === "text" && typeof record.text === "string" ? [record.text] : [];
  });
}

function roleOf(role: unknown): ViewMessage["role"] {
  if (role === "developer" || role === "system") return "system";
  if (role === "assistant" || role === "tool") return role;
  return "user";
}

/** @returns the function tool names a Chat Completions body offers. */
function chatToolNames(body: Record<string, unknown>): string[] {
  return asArray(body.tools).flatMap((tool) => {
    const name = asRecord(asRecord(tool)?.function)?.name;
    return typeof name === "string" ? [name] : [];
  });
}

/** @returns the normalised view of a Chat Completions request body. */
export function chatCompletionsView(body: Record<string, unknown>): RequestView {
  const messages = asArray(body.messages).map((entry) => {
    const message = asRecord(entry) ?? {};
    const draft = messageDraft(roleOf(message.role));
    draft.texts.push(...contentText(message.content));
    for (const call of asArray(message.tool_calls)) {
      const record = asRecord(call);
      const fn = asRecord(record?.function);
      draft.toolCalls.push({
        id: asText(record?.id),
        name: asText(fn?.name),
        arguments: asText(fn?.arguments),
      });
    }
    if (draft.role === "tool") {
      draft.toolResults.push({
        callId: asText(message.tool_call_id),
        output: contentText(message.content).join("\n"),
      });
      draft.texts.length = 0;
    }
    return finishMessage(draft);
  });
  return completeView({
    api: "chat-completions",
    model: asText(body.model),
    stream: body.stream === true,
    toolNames: chatToolNames(body),
    messages,
  });
}

function checkToolPairs(messages: readonly unknown[]): HttpAnswer | undefined {
  for (let index = 0; index < messages.length; index += 1) {
    const message = asRecord(messages[index]);
    if (message?.role === "tool") {
      const previous = asRecord(messages[index - 1]);
      const answersCall =
        previous !== undefined &&
        (previous.role === "tool" || asArray(previous.tool_calls).length > 0);
      if (!answersCall) {
        return openaiInvalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
    }
    const callIds = asArray(message?.tool_calls).map((call) => asText(asRecord(call)?.id));
    if (message?.role !== "assistant" || callIds.length === 0) continue;
    const answered = new Set<string>();
    for (let next = index + 1; next < messages.length; next += 1) {
      const following = asRecord(messages[next]);
      if (following?.role !== "tool") break;
      answered.add(asText(following.tool_call_id));
    }
    const unanswered = callIds.filter((id) => !answered.has(id));
    if (unanswered.length > 0) {
      return openaiInvalidRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${unanswered.join(", ")}`,
        `messages.[${index}].role`,
      );
    }
  }
  return undefined;
}

/**
 * Refuses what the Chat Completions API refuses: no model, no messages, function names outside
 * `^[a-zA-Z0-9_-]+$` or past 64 characters (in `tools` and in earlier calls), two tools with one
 * name, a `tool_calls` message not followed by a tool message per call, a stray tool message.
 *
 * @returns the API's 400 answer, or undefined when the body is accepted.
 */
export function validateChatCompletions(body: Record<string, unknown>): HttpAnswer | undefined {
  if (typeof body.model !== "string" || body.model.length === 0) {
    return openaiInvalidRequest("you must provide a model parameter", null);
  }
  const messages = asArray(body.messages);
  if (messages.length === 0) {
    return openaiInvalidRequest("[] is too short - 'messages'", "messages", "empty_array");
  }
  const tools = asArray(body.tools);
  for (const [index, tool] of tools.entries()) {
    const refusal = checkOpenaiToolName(
      asRecord(asRecord(tool)?.function)?.name,
      `tools[${index}].function.name`,
    );
    if (refusal !== undefined) return refusal;
  }
  for (const [index, entry] of messages.entries()) {
    for (const [callIndex, call] of asArray(asRecord(entry)?.tool_calls).entries()) {
      const refusal = checkOpenaiToolName(
        asRecord(asRecord(call)?.function)?.name,
        `messages[${index}].tool_calls[${callIndex}].function.name`,
      );
      if (refusal !== undefined) return refusal;
    }
  }
  return checkOpenaiDuplicateNames(chatToolNames(body)) ?? checkToolPairs(messages);
}
