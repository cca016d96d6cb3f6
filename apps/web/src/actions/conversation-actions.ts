import { limits } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { applyConversationSnapshot, leaveConversation } from "../state/apply-snapshot";
import { useHostStore } from "../state/host-store";

/** Saves a JSON document as a file in the person's downloads. */
export type DownloadJson = (document: Record<string, unknown>, fileName: string) => void;

const conversations = useHostStore.getState;

/**
 * Starts a new conversation (`conversation:create`) and opens it.
 *
 * @returns true when it was created; otherwise the list shows the error.
 */
export async function createConversation(socket: HostSocket): Promise<boolean> {
  const ack = await request(socket, "conversation:create", {});
  if (!ack.ok) {
    conversations().setConversationsError(`Could not start a conversation: ${ack.error.message}`);
    return false;
  }
  conversations().setConversationsError(null);
  await leaveConversation(ack.value.conversation.id);
  applyConversationSnapshot(ack.value);
  return true;
}

/**
 * Opens a saved conversation (`conversation:open`): its messages load and its cards re-attach.
 *
 * @returns true when it was opened; otherwise the list shows the error.
 */
export async function openConversation(
  socket: HostSocket,
  conversationId: string,
): Promise<boolean> {
  const ack = await request(socket, "conversation:open", { conversationId });
  if (!ack.ok) {
    conversations().setConversationsError(`Could not open the conversation: ${ack.error.message}`);
    return false;
  }
  conversations().setConversationsError(null);
  await leaveConversation(ack.value.conversation.id);
  applyConversationSnapshot(ack.value);
  return true;
}

/**
 * Renames a conversation (`conversation:rename`).
 *
 * @returns true when it was renamed; otherwise the list shows the error.
 */
export async function renameConversation(
  socket: HostSocket,
  conversationId: string,
  title: string,
): Promise<boolean> {
  const trimmed = title.trim();
  if (trimmed === "") {
    conversations().setConversationsError(
      "A conversation needs a title; type one, or press Escape to cancel.",
    );
    return false;
  }
  const ack = await request(socket, "conversation:rename", {
    conversationId,
    title: trimmed.slice(0, limits.maxTitleChars),
  });
  if (!ack.ok) {
    conversations().setConversationsError(
      `Could not rename the conversation: ${ack.error.message}`,
    );
    return false;
  }
  conversations().setConversationsError(null);
  conversations().upsertConversation(ack.value);
  return true;
}

/**
 * Deletes a conversation (`conversation:delete`); when it was the open one, the page shows an
 * empty conversation.
 *
 * @returns true when it was deleted; otherwise the list shows the error.
 */
export async function deleteConversation(
  socket: HostSocket,
  conversationId: string,
): Promise<boolean> {
  const ack = await request(socket, "conversation:delete", { conversationId });
  if (!ack.ok) {
    conversations().setConversationsError(
      `Could not delete the conversation: ${ack.error.message}`,
    );
    return false;
  }
  const wasOpen = conversations().currentConversationId === conversationId;
  conversations().setConversationsError(null);
  if (wasOpen) {
    await leaveConversation(null);
    applyConversationSnapshot(null);
  }
  conversations().removeConversation(conversationId);
  return true;
}

/** A file name for an exported conversation: its title, reduced to safe characters. */
export function exportFileName(title: string): string {
  const slug = title
    .normalize("NFKD")
    // Drop the accents NFKD split off (é → e), then anything that is not a letter or digit.
    .replace(/\p{M}+/gu, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .toLowerCase();
  return `conversation-${slug === "" ? "untitled" : slug}.json`;
}

/**
 * Exports a conversation (`conversation:export`) and saves it as a JSON file.
 *
 * @param download - saves the file ({@link downloadJson} in the page).
 * @returns true when it was exported; otherwise the list shows the error.
 */
export async function exportConversation(
  socket: HostSocket,
  conversationId: string,
  title: string,
  download: DownloadJson,
): Promise<boolean> {
  const ack = await request(socket, "conversation:export", { conversationId });
  if (!ack.ok) {
    conversations().setConversationsError(
      `Could not export the conversation: ${ack.error.message}`,
    );
    return false;
  }
  conversations().setConversationsError(null);
  download(ack.value, exportFileName(title));
  return true;
}

/**
 * Imports a conversation from a JSON file a person picked (`conversation:import`) and opens it.
 *
 * @param file - the picked file (anything with `text()`).
 * @returns true when it was imported; otherwise the list shows the error.
 */
export async function importConversation(
  socket: HostSocket,
  file: Pick<Blob, "text">,
): Promise<boolean> {
  let document: unknown;
  try {
    const text = await file.text();
    if (text.length > limits.maxCardPayloadChars) {
      conversations().setConversationsError(
        `That file is larger than ${limits.maxCardPayloadChars} characters, the most an import may be; pick a smaller export.`,
      );
      return false;
    }
    document = JSON.parse(text);
  } catch {
    conversations().setConversationsError(
      "That file is not JSON. Pick a file saved with Export from this app.",
    );
    return false;
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    conversations().setConversationsError(
      "That file does not hold a conversation. Pick a file saved with Export from this app.",
    );
    return false;
  }
  const ack = await request(socket, "conversation:import", {
    document: document as Record<string, unknown>,
  });
  if (!ack.ok) {
    conversations().setConversationsError(
      `Could not import the conversation: ${ack.error.message}`,
    );
    return false;
  }
  conversations().upsertConversation(ack.value);
  return openConversation(socket, ack.value.id);
}

/**
 * Saves a JSON document through a temporary link with a `download` name.
 *
 * @param document - what to save.
 * @param fileName - the file's name.
 */
export function downloadJson(document: Record<string, unknown>, fileName: string): void {
  const blob = new Blob([JSON.stringify(document, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = window.document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  window.document.body.append(link);
  link.click();
  link.remove();
  // Give the browser the time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
