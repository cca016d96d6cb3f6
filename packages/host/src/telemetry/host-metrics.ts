// The port through which the host's services report what they do to an operator's metrics. A
// service receives one in its dependencies (`SessionServices.metrics`) and calls it; it never
// imports a metrics library. With metrics off it gets `noHostMetrics`, whose methods do nothing,
// so the hot paths cost a call to an empty function. Every label value is bounded: configured
// names, code names and fixed words, never a user id, a conversation id or free text.
import type { ApprovalDecision } from "@mcp-chat-host/protocol";

/** Who asked for a tool call: the model in a turn, or a card's page. */
export type ToolCaller = "model" | "page";

/** How a tool call that reached its source ended: a result, or an error (thrown or `isError`). */
export type ToolCallOutcome = "ok" | "error";

/** The labels of one tool call. */
export interface ToolCallLabels {
  /** The source's key (`notes`, or the config name of an MCP server). */
  source: string;
  /** The tool's name as its source lists it. */
  tool: string;
  caller: ToolCaller;
}

/** How a page's tool call ended at the gate, as its audit row says. */
export type PageCallVerdict = "allowed" | "refused" | "failed";

/** How a turn ended, as its reply is stored. */
export type TurnOutcome = "complete" | "stopped" | "error";

/**
 * How an approval dialog ended: the person's answer (`allow-once`, `allow-card`,
 * `allow-conversation`, `refuse`; `answered` when the answer is not known), `remembered` (an
 * answer to another dialog covered it), or `cancelled` (its card closed or the session ended
 * first).
 */
export type ApprovalEnd = ApprovalDecision | "answered" | "remembered" | "cancelled";

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
  /**
   * One page tool call through the gate, refused ones included.
   *
   * @param source - the card's source key.
   * @param seconds - from the page's request to its verdict (a question to the person included).
   */
  pageCall(source: string, verdict: PageCallVerdict, seconds: number): void;
  /**
   * One turn that ended (its reply was stored as started).
   *
   * @param failure - for an `error`, the model layer's failure kind and provider.
   */
  turn(outcome: TurnOutcome, failure?: { kind: string; provider?: string | undefined }): void;
  /**
   * One request sent to the model's provider (each step of a turn, each retry).
   *
   * @param provider - the model's provider id (`anthropic.messages`, `offline`).
   */
  modelRequest(provider: string): void;
  /** An approval dialog was put to the person. */
  approvalAsked(): void;
  /** An approval dialog ended (see {@link ApprovalEnd}). */
  approvalEnded(end: ApprovalEnd): void;
  /**
   * One store operation, once it settled.
   *
   * @param operation - the store method (`appendMessage`, `saveCard`).
   * @param failed - whether it rejected.
   */
  storeOperation(operation: string, failed: boolean, seconds: number): void;
}

/** The metrics of a host whose operator did not turn them on: every report is dropped. */
export const noHostMetrics: HostMetrics = {
  enabled: false,
  toolCall() {},
  pageCall() {},
  turn() {},
  modelRequest() {},
  approvalAsked() {},
  approvalEnded() {},
  storeOperation() {},
};
