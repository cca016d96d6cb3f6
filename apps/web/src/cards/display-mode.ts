// Which display mode a card is in. The host offers three; a view may narrow them by declaring
// `appCapabilities.availableDisplayModes`, and the host must never put it in a mode it did not
// declare (spec 2026-01-26, "Display modes").
import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";

/** A card's display mode. */
export type DisplayMode = McpUiDisplayMode;

/** Every mode this host can show a card in, in the order the title bar offers them. */
export const offeredDisplayModes: readonly DisplayMode[] = ["inline", "fullscreen", "pip"];

/** Who asked for a mode change. */
export type DisplayModeRequester = "view" | "person";

/**
 * The modes a request may switch to.
 *
 * - A view's own request (`ui/request-display-mode`) is honoured only for modes it declared
 *   that the host offers; a view that declared nothing gets nothing but what it already has.
 * - The person's controls may use every offered mode the view declared, or every offered mode
 *   when the view declared nothing (or has not initialised yet); `inline` is always allowed so
 *   the person can always bring a card back into the conversation.
 *
 * @param declared - the view's `availableDisplayModes`, or undefined when it declared none.
 * @param requestedBy - who asks.
 * @returns the allowed modes, in {@link offeredDisplayModes} order.
 */
export function allowedDisplayModes(
  declared: readonly DisplayMode[] | undefined,
  requestedBy: DisplayModeRequester,
): DisplayMode[] {
  if (requestedBy === "view") {
    if (declared === undefined) return [];
    return offeredDisplayModes.filter((mode) => declared.includes(mode));
  }
  if (declared === undefined || declared.length === 0) return [...offeredDisplayModes];
  return offeredDisplayModes.filter((mode) => mode === "inline" || declared.includes(mode));
}

/**
 * Decides the mode in effect after a request: the requested mode when allowed, else the current
 * one (the spec asks hosts to answer with the mode in effect, changed or not).
 *
 * @returns the mode the card is in after the request.
 */
export function decideDisplayMode(input: {
  requested: unknown;
  current: DisplayMode;
  declared: readonly DisplayMode[] | undefined;
  requestedBy: DisplayModeRequester;
}): DisplayMode {
  const allowed = allowedDisplayModes(input.declared, input.requestedBy);
  const requested = offeredDisplayModes.find((mode) => mode === input.requested);
  return requested !== undefined && allowed.includes(requested) ? requested : input.current;
}
