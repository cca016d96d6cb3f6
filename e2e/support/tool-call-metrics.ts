// The tool calls a running program made, as its own Prometheus metrics say: the counter
// `mcp_chat_host_tool_calls_total{source,tool,caller,outcome}` on `GET /metrics` (turned on by
// METRICS_TOKEN), summed per `source/tool`, so a spec can prove that a restore called nothing.

/** The counter of the calls the host sent to a source. */
const toolCallsCounter = "mcp_chat_host_tool_calls_total";

// One label `name="value"`; a value escapes `\`, `"` and newlines with a backslash.
const labelPattern = /([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_, escaped: string) => (escaped === "n" ? "\n" : escaped));
}

/**
 * Sums the tool-call counter of a metrics page per `source/tool` (over callers and outcomes).
 *
 * @param text - the page in Prometheus text format.
 * @returns the counts above 0, keyed `source/tool`.
 */
function toolCallsFromMetrics(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${toolCallsCounter}{`)) continue;
    const close = line.lastIndexOf("}");
    const labels: Record<string, string> = {};
    for (const match of line.slice(toolCallsCounter.length + 1, close).matchAll(labelPattern)) {
      labels[match[1] ?? ""] = unescapeLabel(match[2] ?? "");
    }
    const value = Number(
      line
        .slice(close + 1)
        .trim()
        .split(" ")[0],
    );
    if (labels["source"] === undefined || labels["tool"] === undefined) {
      throw new Error(`A ${toolCallsCounter} line without a source or a tool: ${line}`);
    }
    if (!Number.isFinite(value))
      throw new Error(`A ${toolCallsCounter} line without a number: ${line}`);
    const key = `${labels["source"]}/${labels["tool"]}`;
    counts[key] = (counts[key] ?? 0) + value;
  }
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));
}

/**
 * Scrapes a program's metrics and sums its tool calls per `source/tool`.
 *
 * @param origin - the program's origin (`http://127.0.0.1:<port>`).
 * @param token - its METRICS_TOKEN.
 * @returns the counts above 0.
 * @throws when the endpoint does not answer 200 (metrics off, a wrong token).
 */
export async function scrapeToolCalls(
  origin: string,
  token: string,
): Promise<Record<string, number>> {
  const response = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) {
    throw new Error(`GET ${origin}/metrics answered ${response.status}: ${await response.text()}`);
  }
  return toolCallsFromMetrics(await response.text());
}
