import type { ChatMessage } from "@mcp-chat-host/protocol";

/**
 * A value as indented JSON for people to read; text that is not JSON-able is shown as it is.
 *
 * @param value - any value.
 * @returns the text.
 */
export function prettyJson(value: unknown): string {
  if (value === undefined) return "(nothing)";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A duration for a tool row: `0.4 s`, `12 s`, `3 min 5 s`.
 *
 * @param milliseconds - the duration.
 * @returns the text.
 */
export function formatDuration(milliseconds: number): string {
  const safe = Math.max(0, milliseconds);
  if (safe < 10_000) return `${(safe / 1_000).toFixed(1)} s`;
  const seconds = Math.round(safe / 1_000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * A time of day for people to read, in their locale.
 *
 * @param at - ms since the epoch.
 * @returns the text.
 */
export function formatTime(at: number): string {
  return new Date(at).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "medium",
  });
}

const integers = new Intl.NumberFormat("en");

/** Tokens a reply used, as the server reports them (`ChatMessage.usage`). */
export type TokenUsage = NonNullable<ChatMessage["usage"]>;

/**
 * A reply's token use for its footer: `1,204 tokens in (1,000 cached) · 56 out`. Parts the
 * provider did not report are left out.
 *
 * @param usage - the reply's usage.
 * @returns the text, or null when nothing was reported.
 */
export function formatUsage(usage: TokenUsage | undefined): string | null {
  if (usage === undefined) return null;
  const { inputTokens, outputTokens, cachedInputTokens } = usage;
  const pieces: string[] = [];
  const cached =
    cachedInputTokens !== undefined && cachedInputTokens > 0
      ? integers.format(cachedInputTokens)
      : null;
  if (inputTokens !== undefined) {
    pieces.push(
      `${integers.format(inputTokens)} tokens in${cached !== null ? ` (${cached} cached)` : ""}`,
    );
  } else if (cached !== null) {
    pieces.push(`${cached} cached tokens in`);
  }
  if (outputTokens !== undefined) {
    pieces.push(`${integers.format(outputTokens)}${pieces.length > 0 ? "" : " tokens"} out`);
  }
  return pieces.length > 0 ? pieces.join(" · ") : null;
}
