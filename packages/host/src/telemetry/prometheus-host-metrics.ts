import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type {
  ApprovalEnd,
  HostMetrics,
  PageCallVerdict,
  ToolCallLabels,
  ToolCallOutcome,
  TurnOutcome,
} from "./host-metrics";

/** Every family this host serves starts with it, Node's default metrics included. */
const METRIC_PREFIX = "mcp_chat_host_";

/** Tool calls run from milliseconds (an in-process app) to minutes (the model's timeout is 300 s). */
const TOOL_CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Store operations: a SQLite read takes microseconds, a Postgres write on a busy disk a second. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** What the gauges read at each scrape, from the parts the composition root owns. */
export interface ObservedState {
  /** Live sessions (one per signed-in tab) on this node. */
  sessions(): number;
  /** Connected sockets on this node. */
  sockets(): number;
  /** The checks `/readyz` makes: the database and Redis (`not-used` without one). */
  readiness(): Promise<{ database?: unknown; redis?: unknown }>;
}

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
  readonly #pageCalls: Counter<"source" | "verdict">;
  readonly #pageCallSeconds: Histogram<"source" | "verdict">;
  readonly #turns: Counter<"outcome">;
  readonly #modelRequests: Counter<"provider">;
  readonly #modelFailures: Counter<"provider" | "kind">;
  readonly #approvalsAsked: Counter;
  readonly #approvalsEnded: Counter<"answer">;
  readonly #storeSeconds: Histogram<"operation">;
  readonly #storeFailures: Counter<"operation">;
  #observed: ObservedState | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.#toolCalls = new Counter({
      name: `${METRIC_PREFIX}tool_calls_total`,
      help: "Tool calls the host sent to a source, by source, tool, caller (model or page) and outcome (ok or error).",
      labelNames: ["source", "tool", "caller", "outcome"],
      registers,
    });
    this.#toolCallSeconds = new Histogram({
      name: `${METRIC_PREFIX}tool_call_duration_seconds`,
      help: "How long tool calls took at their source, by source, caller and outcome.",
      labelNames: ["source", "caller", "outcome"],
      buckets: TOOL_CALL_BUCKETS,
      registers,
    });
    this.#pageCalls = new Counter({
      name: `${METRIC_PREFIX}page_calls_total`,
      help: "Tool calls of card pages through the gate, by source and verdict (allowed, refused, failed).",
      labelNames: ["source", "verdict"],
      registers,
    });
    this.#pageCallSeconds = new Histogram({
      name: `${METRIC_PREFIX}page_call_duration_seconds`,
      help: "How long page tool calls took from the request to the verdict (a question to the person included), by source and verdict.",
      labelNames: ["source", "verdict"],
      buckets: TOOL_CALL_BUCKETS,
      registers,
    });
    this.#turns = new Counter({
      name: `${METRIC_PREFIX}turns_total`,
      help: "Turns of the model that ended, by outcome (complete, stopped, error).",
      labelNames: ["outcome"],
      registers,
    });
    this.#modelRequests = new Counter({
      name: `${METRIC_PREFIX}model_requests_total`,
      help: "Requests sent to the model's provider (a step of a turn, or a retry), by provider.",
      labelNames: ["provider"],
      registers,
    });
    this.#modelFailures = new Counter({
      name: `${METRIC_PREFIX}model_failures_total`,
      help: "Turns that failed, by provider and failure kind (auth, rate-limited, overloaded, provider-error, refused, stalled, cut-off, malformed, network, host).",
      labelNames: ["provider", "kind"],
      registers,
    });
    this.#approvalsAsked = new Counter({
      name: `${METRIC_PREFIX}approvals_asked_total`,
      help: "Approval dialogs put to a person about an app's tool call.",
      registers,
    });
    this.#approvalsEnded = new Counter({
      name: `${METRIC_PREFIX}approvals_answered_total`,
      help: "Approval dialogs that ended, by answer (allow-once, allow-card, allow-conversation, refuse, remembered, cancelled).",
      labelNames: ["answer"],
      registers,
    });
    this.#storeSeconds = new Histogram({
      name: `${METRIC_PREFIX}store_operation_duration_seconds`,
      help: "How long store operations took, failed ones included, by operation.",
      labelNames: ["operation"],
      buckets: STORE_BUCKETS,
      registers,
    });
    this.#storeFailures = new Counter({
      name: `${METRIC_PREFIX}store_operation_failures_total`,
      help: "Store operations that failed, by operation.",
      labelNames: ["operation"],
      registers,
    });
    const observed = () => this.#observed;
    new Gauge({
      name: `${METRIC_PREFIX}sessions`,
      help: "Live sessions (one per signed-in tab) on this node.",
      registers,
      collect() {
        this.set(observed()?.sessions() ?? 0);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}sockets`,
      help: "Connected sockets on this node.",
      registers,
      collect() {
        this.set(observed()?.sockets() ?? 0);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}dependency_up`,
      help: "1 when the dependency (database, redis) answered the readiness check of /readyz at this scrape, else 0; redis is absent without Redis.",
      labelNames: ["dependency"],
      registers,
      async collect() {
        const state = observed();
        if (state === undefined) return;
        const report: { database?: unknown; redis?: unknown } = await state
          .readiness()
          .catch(() => ({ database: "unreachable" }));
        this.reset();
        this.set({ dependency: "database" }, report.database === "ok" ? 1 : 0);
        if (report.redis === "ok" || report.redis === "unreachable") {
          this.set({ dependency: "redis" }, report.redis === "ok" ? 1 : 0);
        }
      },
    });
  }

  /**
   * Gives the gauges what they read at each scrape (once the host is listening).
   *
   * @param state - the sessions, sockets and readiness of this node.
   */
  observe(state: ObservedState): void {
    this.#observed = state;
  }

  /** {@inheritDoc HostMetrics.toolCall} */
  toolCall(labels: ToolCallLabels, outcome: ToolCallOutcome, seconds: number): void {
    this.#toolCalls.inc({ ...labels, outcome });
    this.#toolCallSeconds.observe(
      { source: labels.source, caller: labels.caller, outcome },
      seconds,
    );
  }

  /** {@inheritDoc HostMetrics.pageCall} */
  pageCall(source: string, verdict: PageCallVerdict, seconds: number): void {
    this.#pageCalls.inc({ source, verdict });
    this.#pageCallSeconds.observe({ source, verdict }, seconds);
  }

  /** {@inheritDoc HostMetrics.turn} */
  turn(outcome: TurnOutcome, failure?: { kind: string; provider?: string | undefined }): void {
    this.#turns.inc({ outcome });
    if (outcome === "error" && failure !== undefined) {
      this.#modelFailures.inc({ provider: failure.provider ?? "unknown", kind: failure.kind });
    }
  }

  /** {@inheritDoc HostMetrics.modelRequest} */
  modelRequest(provider: string): void {
    this.#modelRequests.inc({ provider });
  }

  /** {@inheritDoc HostMetrics.approvalAsked} */
  approvalAsked(): void {
    this.#approvalsAsked.inc();
  }

  /** {@inheritDoc HostMetrics.approvalEnded} */
  approvalEnded(end: ApprovalEnd): void {
    this.#approvalsEnded.inc({ answer: end });
  }

  /** {@inheritDoc HostMetrics.storeOperation} */
  storeOperation(operation: string, failed: boolean, seconds: number): void {
    this.#storeSeconds.observe({ operation }, seconds);
    if (failed) this.#storeFailures.inc({ operation });
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
