import type { IncomingHttpHeaders } from "node:http";
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
import { anthropicInvalidRequest } from "./anthropic-errors";

/** The pattern Anthropic holds custom tool names to. */
const anthropicToolNamePattern = /^[a-zA-Z0-9_-]{1,128}$/;

/** @returns the content blocks of a message (a string content is one text block). */
export function contentBlocks(content: unknown): readonly unknown[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : asArray(content);
}

/** @returns the system prompt's blocks (a string system is one text block). */
export function systemBlocks(system: unknown): readonly unknown[] {
  if (typeof system === "string") return system.length > 0 ? [{ type: "text", text: system }] : [];
  return asArray(system);
}

/** @returns the custom tools a Messages body offers (server tools carry a versioned `type`). */
function customTools(body: Record<string, unknown>): Record<string, unknown>[] {
  return asArray(body.tools).flatMap((tool) => {
    const record = asRecord(tool);
    return record !== undefined && (record.type === undefined || record.type === "custom")
      ? [record]
      : [];
  });
}

function blockText(blocks: readonly unknown[]): string[] {
  return blocks.flatMap((block) => {
    const record = asRecord(block);
    return record?.type === "text" && typeof record.text === "string" ? [record.text] : [];
  });
}

/** @returns the normalised view of a Messages request body. */
export function messagesView(body: Record<string, unknown>): RequestView {
  const messages: ViewMessage[] = [];
  const system = blockText(systemBlocks(body.system));
  if (system.length > 0) messages.push(finishMessage({ ...messageDraft("system"), texts: system }));
  for (const entry of asArray(body.messages)) {
    const message = asRecord(entry) ?? {};
    const draft = messageDraft(message.role === "assistant" ? "assistant" : "user");
    for (const block of contentBlocks(message.content)) {
      const record = asRecord(block) ?? {};
      if (record.type === "text" && typeof record.text === "string") draft.texts.push(record.text);
      if (record.type === "tool_use") {
        draft.toolCalls.push({
          id: asText(record.id),
          name: asText(record.name),
          arguments: asText(record.input ?? {}),
        });
      }
      if (record.type === "tool_result") {
        const output =
          typeof record.content === "string"
            ? record.content
            : blockText(asArray(record.content)).join("\n");
        draft.toolResults.push({ callId: asText(record.tool_use_id), output });
      }
    }
    messages.push(finishMessage(draft));
  }
  return completeView({
    api: "messages",
    model: asText(body.model),
    stream: body.stream === true,
    toolNames: customTools(body).map((tool) => asText(tool.name)),
    messages,
  });
}

function countCacheMarkers(body: Record<string, unknown>): number {
  const marked = (block: unknown): number => (asRecord(block)?.cache_control === undefined ? 0 : 1);
  let count = 0;
  for (const tool of asArray(body.tools)) count += marked(tool);
  for (const block of systemBlocks(body.system)) count += marked(block);
  for (const message of asArray(body.messages)) {
    for (const block of contentBlocks(asRecord(message)?.content)) count += marked(block);
  }
  return count;
}

function blockIds(message: unknown, type: "tool_use" | "tool_result"): string[] {
  return contentBlocks(asRecord(message)?.content).flatMap((block) => {
    const record = asRecord(block);
    if (record?.type !== type) return [];
    return [asText(type === "tool_use" ? record.id : record.tool_use_id)];
  });
}

function checkToolPairs(messages: readonly unknown[]): HttpAnswer | undefined {
  for (const [index, message] of messages.entries()) {
    for (const [position, block] of contentBlocks(asRecord(message)?.content).entries()) {
      const record = asRecord(block);
      if (record?.type === "tool_use" && !/^[a-zA-Z0-9_-]+$/.test(asText(record.id))) {
        return anthropicInvalidRequest(
          `messages.${index}.content.${position}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        );
      }
    }
    const results = blockIds(message, "tool_result");
    const previousUses = index > 0 ? blockIds(messages[index - 1], "tool_use") : [];
    const stray = results.filter((id) => !previousUses.includes(id));
    if (stray.length > 0) {
      const position = contentBlocks(asRecord(message)?.content).findIndex(
        (block) => asRecord(block)?.type === "tool_result",
      );
      return anthropicInvalidRequest(
        `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    const uses = blockIds(message, "tool_use");
    const answered =
      index + 1 < messages.length ? blockIds(messages[index + 1], "tool_result") : [];
    const unanswered = uses.filter((id) => !answered.includes(id));
    if (unanswered.length > 0) {
      return anthropicInvalidRequest(
        `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  return undefined;
}

/**
 * Refuses what the Messages API refuses: no `anthropic-version` header; no model, `max_tokens`
 * or messages; custom tool names outside `^[a-zA-Z0-9_-]{1,128}$`; two tools with one name; more
 * than 4 `cache_control` markers; `tool_use` ids outside `^[a-zA-Z0-9_-]+$`; a `tool_use`
 * without its `tool_result` in the next message, or a `tool_result` without its `tool_use` in
 * the message before.
 *
 * @returns the API's 400 answer, or undefined when the request is accepted.
 */
export function validateMessages(
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): HttpAnswer | undefined {
  if (headers["anthropic-version"] === undefined) {
    return anthropicInvalidRequest("anthropic-version: header is required");
  }
  for (const field of ["model", "max_tokens", "messages"]) {
    if (body[field] === undefined) return anthropicInvalidRequest(`${field}: Field required`);
  }
  const names: string[] = [];
  for (const [index, tool] of asArray(body.tools).entries()) {
    const record = asRecord(tool);
    if (record === undefined || !(record.type === undefined || record.type === "custom")) continue;
    if (typeof record.name !== "string" || !anthropicToolNamePattern.test(record.name)) {
      return anthropicInvalidRequest(
        `tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
      );
    }
    names.push(record.name);
  }
  if (new Set(names).size !== names.length) {
    return anthropicInvalidRequest("tools: Tool names must be unique.");
  }
  const markers = countCacheMarkers(body);
  if (markers > 4) {
    return anthropicInvalidRequest(
      `A maximum of 4 blocks with cache_control may be provided. Found ${markers}.`,
    );
  }
  return checkToolPairs(asArray(body.messages));
}
