/**
 * Reads one series from a scrape in the Prometheus text format: the value of the first sample
 * of `name` whose labels include every one of `labels`.
 *
 * @param text - the body of `GET /metrics`.
 * @param name - the sample's name (`mcp_chat_host_turns_total`, `..._duration_seconds_count`).
 * @param labels - labels the series must carry (others may be there too).
 * @returns its value; 0 when no series matches, as Prometheus reads a counter that never moved.
 */
export function metricSample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const present = (match[2] ?? "").split(",");
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return 0;
}
