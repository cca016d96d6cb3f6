import type { Ack, ChatPrompt, ChatResource } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";

/**
 * The prompts a chat's servers offer, for the composer's slash commands (`prompts:list`).
 *
 * @returns the server's answer; a failure says why in `error.message`.
 */
export function listPrompts(socket: HostSocket, chatId: string): Promise<Ack<ChatPrompt[]>> {
  return request(socket, "prompts:list", { chatId });
}

/**
 * A prompt's text with its arguments filled in (`prompt:get`), for the composer's box.
 *
 * @returns the server's answer; a missing argument or a server's refusal says why.
 */
export function getPromptText(
  socket: HostSocket,
  chatId: string,
  prompt: Pick<ChatPrompt, "source" | "name">,
  args: Record<string, string>,
): Promise<Ack<{ text: string }>> {
  return request(socket, "prompt:get", {
    chatId,
    source: prompt.source,
    name: prompt.name,
    arguments: args,
  });
}

/**
 * The resources a chat's servers offer, which the person can attach (`resources:list`).
 *
 * @returns the server's answer; a failure says why in `error.message`.
 */
export function listResources(socket: HostSocket, chatId: string): Promise<Ack<ChatResource[]>> {
  return request(socket, "resources:list", { chatId });
}
