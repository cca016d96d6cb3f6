import {
  chatHostAttacherOf,
  type Chat,
  type ChatHostHandle,
  type ChatHostOptions,
} from "./session/chat";
import { HostError } from "./host-error";
import type { SourceSpec } from "./session/session-sources";

/**
 * Gives a chat's model the tools of one or more MCP Apps and shows each app it opens as a live
 * card in the conversation. Call it in the session function, once per chat.
 *
 * - The model is told, before each message the person sends, what the chat's open cards report
 *   (unless `context: false`); 2,000 characters an app, the five that changed last.
 * - Messages an app asks to post go to the chat's input box (`compose`), are sent (`submit`), or
 *   are dropped (`ignore`).
 * - `onAppCall` checks every tool call the pages of the chat's cards make.
 *
 * @param chat - a chat made with `session.chat()`.
 * @param sources - an `McpApp`, the value of `mcpClient()`, a configured server's name, or a list.
 * @param options - context, messages, onAppCall, title.
 * @returns `{ key, context(), tools, ready }`.
 * @throws {HostError} `bad_request` when `chat` is not a session's chat, already has a host, a
 *   source name is used twice, or an option is invalid.
 */
export function mcpChatHost(
  chat: Chat,
  sources: SourceSpec | readonly SourceSpec[],
  options: ChatHostOptions = {},
): ChatHostHandle {
  const attach = chatHostAttacherOf(chat);
  if (!attach) {
    throw new HostError("bad_request", "`chat` must be a chat made with `session.chat()`.");
  }
  const list = Array.isArray(sources) ? [...(sources as SourceSpec[])] : [sources as SourceSpec];
  return attach(chat, list, options);
}
