import type { Chat, ChatOptions } from "./chat";
import type { OnAppCall } from "../gate/app-call-gate";
import type { SessionUser } from "./session-context";
import type { SourceSpec } from "./session-sources";

/** Options of a card or pane shown by hand (`session.showCard`, `session.pane`). */
export interface ShowCardOptions {
  /** The tool that opens the app. Default: its first model-visible tool with a view, else its first model-visible tool. Required for remote sources. */
  tool?: string;
  /** The opening call's arguments (default `{}`). */
  arguments?: Record<string, unknown>;
  /** The card's title (default: the tool's title). */
  title?: string;
  /** Checks the tool calls of this card's page (before its chat's check, if any). */
  onAppCall?: OnAppCall | null;
}

/**
 * One signed-in browser tab, as the session function given to `createHostServer` sees it: it
 * builds the tab's chats with {@link Session.chat} and `mcpChatHost()`, and may show panes and
 * cards by hand.
 */
export interface Session {
  /** The session's id. */
  readonly id: string;
  /** The signed-in person (with token auth, the operator). */
  readonly user: SessionUser;
  /**
   * Adds a chat to the session: its key is `id`, or `chat-<n>` (n counting from 1), made unique
   * when already taken (`support` → `support.1`).
   *
   * @returns the chat; give it to `mcpChatHost()` to attach sources.
   * @throws {TypeError} for bad limits.
   */
  chat(options?: ChatOptions): Chat;
  /**
   * Shows an app as a pane beside the conversation: its tool is called first (the opening call),
   * and its page's calls pass `onAppCall`. Panes belong to no chat and never reach a model.
   *
   * @returns the pane's instance id.
   */
  pane(source: SourceSpec, options?: ShowCardOptions): Promise<string>;
  /**
   * Adds a card built by hand to the conversation (`mcpContentResult`): its tool is called first,
   * and the card belongs to the session's only chat (or to none when there are several).
   *
   * @returns the card's instance id.
   */
  showCard(source: SourceSpec, options?: ShowCardOptions): Promise<string>;
  /** Registers a function called once when the session ends. */
  onEnd(listener: () => void | Promise<void>): void;
  /** The text the model is (or would be) given about a chat's open cards, or null. */
  contextFor(chatKey: string): string | null;
}
