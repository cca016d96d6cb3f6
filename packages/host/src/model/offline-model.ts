// The default model: deterministic, no network, no key. It answers by the rules of
// offline-rules.ts and says plainly that it is offline. It is how the product runs out of the box
// and how end-to-end tests talk to a model.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { decideOfflineReply, offlineToolsFrom } from "./offline-rules";
import type { OfflineDecision } from "./offline-rules";

/** Settings of {@link createOfflineModel}; the defaults suit tests. */
export interface OfflineModelOptions {
  /**
   * Makes the id of a tool call. Default: `offline-call-<number of messages in the prompt>`,
   * which is deterministic and unique within a conversation (the prompt only grows).
   */
  generateToolCallId?: (prompt: LanguageModelV3Prompt) => string;
  /** A pause between streamed text chunks, so a person sees the text arrive. Default 0. */
  chunkDelayMs?: number;
}

/** The most chunks one streamed answer is split into. */
const MAX_CHUNKS = 8;

// The offline model counts nothing, so it reports no token numbers rather than made-up ones.
const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/**
 * Creates the offline model (provider "offline", model id "offline"), an AI SDK `LanguageModelV3`
 * with both `doGenerate` and `doStream`. It makes at most one tool call per step, and streams its
 * text in a few chunks.
 *
 * @returns a new model; instances share nothing.
 */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV3 {
  const generateToolCallId =
    options.generateToolCallId ?? ((prompt) => `offline-call-${prompt.length}`);
  const chunkDelayMs = options.chunkDelayMs ?? 0;

  const decide = (callOptions: LanguageModelV3CallOptions): OfflineDecision =>
    decideOfflineReply(callOptions.prompt, offlineToolsFrom(callOptions.tools));

  return {
    specificationVersion: "v3",
    provider: "offline",
    modelId: "offline",
    supportedUrls: {},

    doGenerate(callOptions) {
      const decision = decide(callOptions);
      const content: LanguageModelV3Content[] =
        decision.type === "text"
          ? [{ type: "text", text: decision.text }]
          : [toolCallOf(decision, generateToolCallId(callOptions.prompt))];
      return Promise.resolve({
        content,
        finishReason: finishReasonOf(decision),
        usage: NO_USAGE,
        warnings: [],
      });
    },

    doStream(callOptions) {
      const decision = decide(callOptions);
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        {
          type: "response-metadata",
          id: `offline-${callOptions.prompt.length}`,
          modelId: "offline",
        },
      ];
      if (decision.type === "text") {
        parts.push({ type: "text-start", id: "text" });
        for (const delta of splitIntoChunks(decision.text)) {
          parts.push({ type: "text-delta", id: "text", delta });
        }
        parts.push({ type: "text-end", id: "text" });
      } else {
        parts.push(toolCallOf(decision, generateToolCallId(callOptions.prompt)));
      }
      parts.push({ type: "finish", finishReason: finishReasonOf(decision), usage: NO_USAGE });
      return Promise.resolve({
        stream: streamOf(parts, chunkDelayMs, callOptions.abortSignal),
      });
    },
  };
}

/**
 * Splits a text at word starts into at most {@link MAX_CHUNKS} chunks that join back to the text.
 *
 * @returns the chunks in order; one chunk for a single word, none for "".
 */
export function splitIntoChunks(text: string): string[] {
  if (text === "") return [];
  const words = text.split(/(?<=\s)(?=\S)/);
  const size = Math.max(1, Math.ceil(words.length / MAX_CHUNKS));
  const chunks: string[] = [];
  for (let index = 0; index < words.length; index += size) {
    chunks.push(words.slice(index, index + size).join(""));
  }
  return chunks;
}

function toolCallOf(
  decision: Extract<OfflineDecision, { type: "tool-call" }>,
  toolCallId: string,
): Extract<LanguageModelV3Content, { type: "tool-call" }> {
  return {
    type: "tool-call",
    toolCallId,
    toolName: decision.toolName,
    input: JSON.stringify(decision.input),
  };
}

function finishReasonOf(decision: OfflineDecision): LanguageModelV3FinishReason {
  return { unified: decision.type === "text" ? "stop" : "tool-calls", raw: undefined };
}

function streamOf(
  parts: readonly LanguageModelV3StreamPart[],
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      const part = parts[next];
      next += 1;
      if (part === undefined) {
        controller.close();
        return;
      }
      if (delayMs > 0 && part.type === "text-delta") await pause(delayMs, signal);
      if (signal?.aborted === true) {
        controller.error(signal.reason);
        return;
      }
      controller.enqueue(part);
    },
  });
}

function pause(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, delayMs);
    signal?.addEventListener("abort", done, { once: true });
  });
}
