import type { ChatResource } from "@mcp-chat-host/protocol";

/** A message that was sent but not acknowledged, so a retry reuses its id (no double storing). */
export interface PendingSend {
  text: string;
  clientId: string;
}

/** The app whose view wrote (some of) a chat's box, in compose mode. */
export interface AppAuthor {
  instanceId: string;
  /** The card's title, or the source's name when the card is not known. */
  title: string;
  source: string;
}

/** An app's message waiting for the person to put it in the box, or dismiss it. */
export interface AppSuggestion extends AppAuthor {
  text: string;
}

/** One chat's input box. */
export interface ComposerEntry {
  text: string;
  sending: boolean;
  /** Why the last send failed, or null. */
  error: string | null;
  /** Bumped to ask the box to take the focus. */
  focusRequest: number;
  /** The sent but unacknowledged message, or null. */
  pending: PendingSend | null;
  /** Whether the person's focus is in the box. */
  focused: boolean;
  /** The app that wrote the box's text, until it is sent or cleared. */
  author: AppAuthor | null;
  /** An app's message waiting for the person (the newest one). */
  suggestion: AppSuggestion | null;
  /** The server resources the person attached to the message being written, in order. */
  attachments: ChatResource[];
}

/**
 * Each chat's input box, by chat id. An app's message never replaces or slips into what the person
 * is typing, never takes the focus, and always says which app wrote it.
 */
export interface ComposerSlice {
  composers: Record<string, ComposerEntry>;
  /** Sets a chat's text (typing). An emptied box no longer holds an app's text. */
  setComposerText(chatId: string, text: string): void;
  /**
   * An app's message for a chat's box (`composer:fill`). An empty box the person is not in takes
   * it (without the focus); otherwise it waits as a suggestion, so nothing the person typed is
   * replaced and no key they are pressing sends it. Either way the app is named.
   */
  offerAppMessage(chatId: string, text: string, author: AppAuthor): void;
  /** The person puts the suggestion in the box: alone in an empty box, else below their text. */
  acceptSuggestion(chatId: string): void;
  /** The person dismisses the suggestion. */
  dismissSuggestion(chatId: string): void;
  /** The person clears what an app wrote (the box empties). */
  clearAppText(chatId: string): void;
  /** Records whether the person's focus is in a chat's box. */
  setComposerFocused(chatId: string, focused: boolean): void;
  /** Changes some fields of a chat's box (sending, error, pending send, attachments). */
  patchComposer(
    chatId: string,
    patch: Partial<Pick<ComposerEntry, "sending" | "error" | "pending" | "text" | "attachments">>,
  ): void;
  /**
   * Attaches a resource to a chat's message: once each, at most `limits.maxAttachments`.
   *
   * @returns false when it was not added (already attached, or the most are attached).
   */
  addAttachment(chatId: string, resource: ChatResource): boolean;
  /** Removes an attached resource. */
  removeAttachment(chatId: string, source: string, uri: string): void;
  /** Asks a chat's box to take the focus. */
  requestComposerFocus(chatId: string): void;
}
