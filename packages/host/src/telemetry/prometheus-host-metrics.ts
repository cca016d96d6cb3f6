import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import type { HostMetrics, ToolCallLabels, ToolCallOutcome } from "./host-metrics";

/** Every family this host serves starts with it, Node's default metrics included. */
const METRIC_PREFIX = "mcp_chat_host_";

/** Tool calls run from milliseconds (an in-process app) to minutes (the model's timeout is 300 s). */
const TOOL_CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The host's metrics in a prom-client registry of their own (not prom-client's global one, so
 * two hosts in one process, as in tests, keep their numbers apart), with Node's default metrics
 * (event-loop delay, heap, handles, CPU) under the same prefix.
 */
export class PrometheusHostMetrics implements HostMetrics {
  readonly enabled = true;
  /** The registry `/metrics` serves. */
  readonly registry = new Registry();
  readonly #toolCalls: Counter<"source" | "tool" | "caller" | "outcome">;
  readonly #toolCallSeconds: Histogram<"source" | "caller" | "outcome">;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.#toolCalls = new Counter({
      name: `${METRIC_PREFIX}tool_calls_total`,
      help: "Tool calls the host sent to a source, by source, tool, caller (model or page) and outcome (ok or error).",
      labelNames: ["source", "tool", "caller", "outcome"],
      registers: [this.registry],
    });
    this.#toolCallSeconds = new Histogram({
      name: `${METRIC_PREFIX}tool_call_duration_seconds`,
      help: "How long tool calls took at their source, by source, caller and outcome.",
      labelNames: ["source", "caller", "outcome"],
      buckets: TOOL_CALL_BUCKETS,
      registers: [this.registry],
    });
  }

  /** {@inheritDoc HostMetrics.toolCall} */
  toolCall(labels: ToolCallLabels, outcome: ToolCallOutcome, seconds: number): void {
    this.#toolCalls.inc({ ...labels, outcome });
    this.#toolCallSeconds.observe(
      { source: labels.source, caller: labels.caller, outcome },
      seconds,
    );
  }

  /**
   * The metrics in the Prometheus text format.
   *
   * @returns the body and its `Content-Type`.
   */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
