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
