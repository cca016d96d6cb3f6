import { describe, expect, it } from "vitest";
import { declaresMetric, parseMetrics, sumMetric, sumMetricBy } from "./metrics";

const page = `# HELP mcp_chat_host_tool_calls_total Tool calls the host sent to a source.
# TYPE mcp_chat_host_tool_calls_total counter
mcp_chat_host_tool_calls_total{source="notes",tool="open-notes",caller="model",outcome="ok"} 2
mcp_chat_host_tool_calls_total{source="notes",tool="save",caller="page",outcome="ok"} 3
mcp_chat_host_tool_calls_total{source="bench",tool="echo",caller="page",outcome="error"} 1
nodejs_eventloop_lag_p99_seconds 0.0123
process_resident_memory_bytes 1.5e+08
odd_label{text="a \\"quoted\\" \\\\ value"} 7
`;

describe("metrics", () => {
  it("parses samples, skipping comments, with escaped label values", () => {
    const samples = parseMetrics(page);
    expect(samples).toHaveLength(6);
    expect(samples[3]).toEqual({
      name: "nodejs_eventloop_lag_p99_seconds",
      labels: {},
      value: 0.0123,
    });
    expect(samples[4]?.value).toBe(1.5e8);
    expect(samples[5]?.labels).toEqual({ text: 'a "quoted" \\ value' });
  });

  it("sums a metric, optionally where labels match", () => {
    expect(sumMetric(page, "mcp_chat_host_tool_calls_total")).toBe(6);
    expect(sumMetric(page, "mcp_chat_host_tool_calls_total", { source: "notes" })).toBe(5);
    expect(
      sumMetric(page, "mcp_chat_host_tool_calls_total", { caller: "page", outcome: "ok" }),
    ).toBe(3);
    expect(sumMetric(page, "no_such_metric")).toBe(0);
  });

  it("tells a declared metric with no samples from one the page does not have", () => {
    expect(declaresMetric(page, "mcp_chat_host_tool_calls_total")).toBe(true);
    expect(declaresMetric("# TYPE other_total counter\n", "mcp_chat_host_tool_calls_total")).toBe(
      false,
    );
  });

  it("sums by labels", () => {
    expect(sumMetricBy(page, "mcp_chat_host_tool_calls_total", ["source", "tool"])).toEqual({
      "notes/open-notes": 2,
      "notes/save": 3,
      "bench/echo": 1,
    });
  });
});
