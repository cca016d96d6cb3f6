import type { Session, ShowCardOptions } from "./session/session";
import type { SourceSpec } from "./session/session-sources";

/**
 * Adds a card built by hand to the session's conversation: the tool is
 * called first, so the saved card carries the opening result and a restored card never calls it
 * again. The card belongs to the session's only chat (none when there are several), and its
 * page's calls pass `options.onAppCall` and then that chat's `onAppCall`.
 *
 * @param session - the session (the argument of the session function).
 * @param source - an `McpApp`, the value of `mcpClient()`, or a configured server's name.
 * @param options - `tool` (required for remote sources), `arguments`, `title`, `onAppCall`.
 * @returns the card's instance id.
 * @throws {HostError} when the source has no such tool (or no tool for the model), or the remote
 *   source was not told which tool opens the app; the source's error when the call fails.
 */
export function mcpContentResult(
  session: Session,
  source: SourceSpec,
  options: ShowCardOptions = {},
): Promise<string> {
  return session.showCard(source, options);
}
