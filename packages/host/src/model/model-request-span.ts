// The span of one request to the model (OpenTelemetry's GenAI conventions: `chat <model id>`,
// kind client): which provider and model, how it ended, the failure's kind and the tokens the
// provider reported. Never the prompt, the reply or a key.
import type { LanguageModelV3, LanguageModelV3Usage } from "@ai-sdk/provider";
import { openSpan, tracingOn } from "../telemetry/spans";
import { describeFailure } from "./model-failure";

/** One model request's span, ended once by whichever of its ends comes first. */
export interface ModelRequestSpan {
  /** The provider's `finish` chunk: its usage goes on the span. */
  usage(usage: LanguageModelV3Usage): void;
  /** The request ended with the model's last chunk. */
  complete(): void;
  /** The request failed (before its stream, or during it). */
  failed(error: unknown): void;
  /** The reader stopped reading (the person stopped the reply). */
  cancelled(): void;
}

/**
 * Opens the span of a request about to be sent, a child of the span active now (the turn).
 *
 * @param now - the time, for the failure's description.
 */
export function modelRequestSpan(model: LanguageModelV3, now: () => number): ModelRequestSpan {
  if (!tracingOn()) return untraced;
  const span = openSpan(
    `chat ${model.modelId}`,
    {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": model.provider,
      "gen_ai.request.model": model.modelId,
    },
    "client",
  );
  let ended = false;
  const end = (outcome: string): void => {
    ended = true;
    span.set({ "mcp_chat_host.outcome": outcome });
    span.end();
  };
  return {
    usage(usage) {
      if (ended) return;
      const input = usage.inputTokens.total;
      const output = usage.outputTokens.total;
      if (input !== undefined) span.set({ "gen_ai.usage.input_tokens": input });
      if (output !== undefined) span.set({ "gen_ai.usage.output_tokens": output });
    },
    complete: () => {
      if (!ended) end("ok");
    },
    failed(error) {
      if (ended) return;
      const failure = describeFailure(error, { provider: model.provider, now: now() });
      span.set({
        "mcp_chat_host.model.failure_kind": failure.kind,
        ...(failure.status === undefined ? {} : { "http.response.status_code": failure.status }),
      });
      span.fail(failure.kind);
      end("error");
    },
    cancelled: () => {
      if (!ended) end("cancelled");
    },
  };
}

/** The span of a request while tracing is off: nothing. */
const untraced: ModelRequestSpan = {
  usage() {},
  complete() {},
  failed() {},
  cancelled() {},
};
