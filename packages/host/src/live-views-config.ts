import type { McpConfig } from "@mcp-chat-host/connection";

/** The largest `host.liveViews` accepted: more live views than this would defeat the cap. */
export const maximumLiveViews = 200;

/**
 * The configuration's `host.liveViews`: most card views a browser tab keeps live at once (the
 * others show a light stand-in until scrolled near).
 *
 * @returns the number, or undefined when the section does not set it (the page's default, 12).
 * @throws {Error} with a sentence naming the field when it is not a whole number from 1 to
 *   {@link maximumLiveViews}.
 */
export function liveViewsFromConfig(config: McpConfig | null): number | undefined {
  const section = config?.host;
  if (section === null || typeof section !== "object") return undefined;
  const value = (section as Record<string, unknown>)["liveViews"];
  if (value === undefined) return undefined;
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < 1 ||
    value > maximumLiveViews
  ) {
    throw new Error(
      `host.liveViews must be a whole number from 1 to ${maximumLiveViews}, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
    );
  }
  return value;
}
