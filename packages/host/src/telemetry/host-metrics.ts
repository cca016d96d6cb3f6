// The port through which the host's services report what they do to an operator's metrics. A
// service receives one in its dependencies (`SessionServices.metrics`) and calls it; it never
// imports a metrics library. With metrics off it gets `noHostMetrics`, whose methods do nothing,
// so the hot paths cost a call to an empty function.

/** Who asked for a tool call: the model in a turn, or a card's page. */
export type ToolCaller = "model" | "page";

/** How a tool call that reached its source ended: a result, or an error (thrown or `isError`). */
export type ToolCallOutcome = "ok" | "error";

/** The labels of one tool call. Every value is bounded: configured names, never user data. */
export interface ToolCallLabels {
  /** The source's key (`notes`, or the config name of an MCP server). */
  source: string;
  /** The tool's name as its source lists it. */
  tool: string;
  caller: ToolCaller;
}

/** What the host's services report. Each method is cheap and never throws. */
export interface HostMetrics {
  /** False for {@link noHostMetrics}: callers may skip work that only feeds metrics. */
  readonly enabled: boolean;
  /**
   * One tool call that the host sent to its source, once it ended.
   *
   * @param seconds - from sending it to its answer.
   */
  toolCall(labels: ToolCallLabels, outcome: ToolCallOutcome, seconds: number): void;
}

/** The metrics of a host whose operator did not turn them on: every report is dropped. */
export const noHostMetrics: HostMetrics = {
  enabled: false,
  toolCall() {},
};
