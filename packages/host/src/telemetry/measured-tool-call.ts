import { performance } from "node:perf_hooks";
import type { HostMetrics, ToolCallLabels } from "./host-metrics";

/**
 * Sends one tool call to its source and reports it: counted once, with its outcome (`error`
 * when it threw or its result has `isError`) and how long it took. Every model and page tool
 * call that reaches a source passes here; a call a gate or check refused never does.
 *
 * @param metrics - where it is reported (nothing is measured when metrics are off).
 * @param labels - the source, the tool and who asked.
 * @param send - sends the call (`source.callTool(...)`).
 * @returns what `send` resolved with.
 * @throws what `send` threw.
 */
export async function measuredToolCall<Result extends { isError?: boolean | undefined }>(
  metrics: HostMetrics,
  labels: ToolCallLabels,
  send: () => Promise<Result>,
): Promise<Result> {
  if (!metrics.enabled) return send();
  const started = performance.now();
  try {
    const result = await send();
    metrics.toolCall(labels, result.isError === true ? "error" : "ok", elapsed(started));
    return result;
  } catch (error) {
    metrics.toolCall(labels, "error", elapsed(started));
    throw error;
  }
}

function elapsed(started: number): number {
  return (performance.now() - started) / 1_000;
}
