// A model for the fault tests whose replies are written step by step by the test: each call of
// the model runs a script that writes text and tool calls and may wait on the test (a gate) in the
// middle of a reply. The fake sits at the model only, as the house rules allow.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/** Writes one model step: text deltas and tool calls, then the finish. */
export interface StepWriter {
  /** Writes a text delta (the text part is opened on the first one). */
  text(delta: string): void;
  /** Writes a tool call; the step then finishes with reason `tool-calls`. */
  toolCall(toolCallId: string, toolName: string, input: Record<string, unknown>): void;
  /** Closes the text part (if any) and finishes the step. */
  finish(): void;
  /** Aborted when the host stops the reply (the person stopped it, the session ended). */
  readonly signal: AbortSignal;
}

/** One step of a reply: writes through the writer, and may wait in between. */
export type ModelStep = (writer: StepWriter) => void | Promise<void>;

/**
 * A model whose every call (one call per step of a reply) runs the step `decide` picks for it.
 *
 * @param decide - gets the call's options (the prompt) and the call's index from 0; returns the step.
 * @returns the model, to pass as `createHostServer({ model })`.
 */
export function scriptedModel(
  decide: (call: LanguageModelV3CallOptions, index: number) => ModelStep,
): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doStream: (options) => {
      const step = decide(options, calls);
      calls += 1;
      const signal = options.abortSignal ?? new AbortController().signal;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          let textOpen = false;
          let toolCalls = 0;
          let closed = false;
          const enqueue = (part: LanguageModelV3StreamPart) => {
            if (!closed) controller.enqueue(part);
          };
          const writer: StepWriter = {
            signal,
            text(delta) {
              if (!textOpen) enqueue({ type: "text-start", id: "text" });
              textOpen = true;
              enqueue({ type: "text-delta", id: "text", delta });
            },
            toolCall(toolCallId, toolName, input) {
              toolCalls += 1;
              enqueue({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });
            },
            finish() {
              if (textOpen) enqueue({ type: "text-end", id: "text" });
              textOpen = false;
              enqueue({
                type: "finish",
                finishReason: { unified: toolCalls > 0 ? "tool-calls" : "stop", raw: undefined },
                usage: oneTokenUsage(),
              });
              closed = true;
              controller.close();
            },
          };
          const onAbort = () => {
            if (closed) return;
            closed = true;
            controller.error(signal.reason);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          // Not awaited: start() must return for the stream to be read while the step waits.
          void Promise.resolve()
            .then(() => step(writer))
            .catch((error: unknown) => {
              if (closed) return;
              closed = true;
              controller.error(error);
            });
        },
      });
      return Promise.resolve({ stream });
    },
  });
}

/** The text of the person's last message in a prompt (app context included), or "". */
export function lastPersonText(prompt: LanguageModelV3Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message?.role !== "user") continue;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  return "";
}

/** True when the prompt ends with tool results (the model is writing the step after a tool call). */
export function afterToolResults(prompt: LanguageModelV3Prompt): boolean {
  return prompt.at(-1)?.role === "tool";
}

/** Resolves when the signal aborts; never otherwise (a reply that hangs until it is cut). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function oneTokenUsage(): Extract<LanguageModelV3StreamPart, { type: "finish" }>["usage"] {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
}
