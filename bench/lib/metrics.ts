// Reading the program's /metrics page (Prometheus text format): the sum of a metric's samples,
// optionally only those whose labels match. The benchmarks count a restore's tool calls this way
// (`mcp_chat_host_tool_calls_total`), as an operator's dashboard would.

/** One sample line: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  // Label values are quoted with backslash escapes (\\, \", \n).
  for (const match of text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
    const [, key, value] = match;
    if (key !== undefined && value !== undefined) {
      labels[key] = value.replace(/\\(.)/g, (_all, escaped: string) =>
        escaped === "n" ? "\n" : escaped,
      );
    }
  }
  return labels;
}

/**
 * The samples of a Prometheus text page (comments and blank lines skipped).
 *
 * @returns every sample line, in order.
 */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line.trim());
    if (match?.[1] === undefined || match[3] === undefined) continue;
    const value = Number(match[3]);
    if (Number.isNaN(value)) continue;
    samples.push({ name: match[1], labels: parseLabels(match[2] ?? ""), value });
  }
  return samples;
}

/**
 * The sum of a metric's samples whose labels include every one of `where`.
 *
 * @returns the sum; 0 when no sample matches (a counter not yet incremented is often absent).
 */
export function sumMetric(text: string, name: string, where: Record<string, string> = {}): number {
  return parseMetrics(text)
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(where).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * A metric's samples by one label's value, summed.
 *
 * @returns e.g. `{ "notes/open-notes": 2 }` for `byLabels(text, name, ["source", "tool"])`.
 */
export function sumMetricBy(text: string, name: string, labels: string[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const sample of parseMetrics(text)) {
    if (sample.name !== name) continue;
    const key = labels.map((label) => sample.labels[label] ?? "").join("/");
    sums[key] = (sums[key] ?? 0) + sample.value;
  }
  return sums;
}

/**
 * Whether the page declares a metric (its `# TYPE` line), so a sum of 0 means "none counted" and
 * not "this program does not count them".
 */
export function declaresMetric(text: string, name: string): boolean {
  return text.split("\n").some((line) => line.startsWith(`# TYPE ${name} `));
}
