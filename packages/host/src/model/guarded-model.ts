// Wraps a model so each of its requests is watched and, when the provider is busy, retried:
// - the stall watch: no chunk for `stallTimeoutMs` (from the request until the first chunk, and
//   between chunks) closes the request (the abort reaches fetch) and fails it with
//   ModelStallError. Raw chunks count (an Anthropic `ping` keeps the request alive); time spent
//   running tools or waiting on the person does not, since it is not spent waiting on the model.
// - retries: a request that failed with 429, 503 or 529 before it returned a stream is sent
//   again, up to twice, after the `retry-after` wait (1 s, 2 s when the provider gives none),
//   but only while nothing of the turn has been shown and the wait is within the cap.
import { wrapLanguageModel } from "ai";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { ModelStallError, isTransientOverload } from "./model-failure";
import { modelRequestSpan, type ModelRequestSpan } from "./model-request-span";
import { readProviderError, retryAfterMs } from "./provider-error-facts";
import type { TurnClock } from "./turn-clock";

/** How a guarded model watches and retries its requests. */
export interface ModelGuardOptions {
  /** The longest wait for the model's next chunk before the request is closed. */
  stallTimeoutMs: number;
  /** The longest `retry-after` waited out; a longer one fails the request at once. */
  retryAfterCapMs: number;
  /** How many times a busy request is sent again. */
  maxRetries: number;
  clock: TurnClock;
  /** Asked before each retry: false once anything of the turn has been shown. */
  mayRetry: () => boolean;
  /** Told of each request as it is sent (a retry is another request). */
  onRequest?: () => void;
  /** Receives the response headers of each request that returned a stream. */
  onResponse?: (headers: Record<string, string> | undefined) => void;
  /** Receives the usage of each request's `finish` chunk, as the provider reported it. */
  onUsage?: (usage: LanguageModelV3Usage) => void;
}

/**
 * Wraps a model with the stall watch and the retries (see the file comment).
 *
 * @returns a model with the same provider and id.
 */
export function guardModel(model: LanguageModelV3, options: ModelGuardOptions): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapStream: ({ params, model: inner }) => streamWithRetries(inner, params, options),
    },
  });
}

/**
 * The wait before sending a failed request again.
 *
 * @returns the wait in ms, or undefined when the request must not be sent again.
 */
export function retryWait(
  error: unknown,
  attempt: number,
  options: Pick<ModelGuardOptions, "retryAfterCapMs" | "maxRetries"> & { now: number },
): number | undefined {
  if (attempt >= options.maxRetries) return undefined;
  const facts = readProviderError(error);
  if (!isTransientOverload(facts)) return undefined;
  const asked = retryAfterMs(facts.headers, options.now);
  if (asked === undefined) return 1000 * 2 ** attempt;
  return asked <= options.retryAfterCapMs ? asked : undefined;
}

async function streamWithRetries(
  model: LanguageModelV3,
  params: LanguageModelV3CallOptions,
  options: ModelGuardOptions,
): Promise<LanguageModelV3StreamResult> {
  // Bounded: retryWait gives up after maxRetries attempts.
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await streamOnce(model, params, options);
    } catch (error) {
      const signal = params.abortSignal;
      if (signal?.aborted === true || !options.mayRetry()) throw error;
      const wait = retryWait(error, attempt, { ...options, now: options.clock.now() });
      if (wait === undefined) throw error;
      await options.clock.sleep(wait, signal ?? new AbortController().signal);
    }
  }
}

async function streamOnce(
  model: LanguageModelV3,
  params: LanguageModelV3CallOptions,
  options: ModelGuardOptions,
): Promise<LanguageModelV3StreamResult> {
  options.onRequest?.();
  const request = new AbortController();
  const signal =
    params.abortSignal === undefined
      ? request.signal
      : AbortSignal.any([params.abortSignal, request.signal]);
  const watch = new StallWatch(options.clock, options.stallTimeoutMs, (error) =>
    request.abort(error),
  );
  watch.arm();
  const span = modelRequestSpan(model, () => options.clock.now());
  let result: LanguageModelV3StreamResult;
  try {
    result = await Promise.race([
      model.doStream({ ...params, abortSignal: signal, includeRawChunks: true }),
      watch.stalled,
    ]);
  } catch (error) {
    span.failed(watch.error ?? error);
    throw watch.error ?? error;
  } finally {
    watch.disarm();
  }
  options.onResponse?.(result.response?.headers);
  const keepRaw = params.includeRawChunks === true;
  return { ...result, stream: watchedStream(result.stream, watch, keepRaw, options.onUsage, span) };
}

function watchedStream(
  source: ReadableStream<LanguageModelV3StreamPart>,
  watch: StallWatch,
  keepRaw: boolean,
  onUsage: ((usage: LanguageModelV3Usage) => void) | undefined,
  span: ModelRequestSpan,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = source.getReader();
  // A stall cancels the source, which settles a pending read (one listener per request, not a
  // race per chunk, so a long reply keeps no handler per chunk).
  watch.stalled.catch(() => reader.cancel(watch.error).catch(() => {}));
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      // Raw chunks were asked for only to keep the watch fed; skip them unless the caller wants
      // them. Bounded by the source stream.
      for (;;) {
        watch.arm();
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          reader.cancel().catch(() => {});
          span.failed(watch.error ?? error);
          controller.error(watch.error ?? error);
          return;
        } finally {
          watch.disarm();
        }
        if (watch.error !== undefined) {
          span.failed(watch.error);
          controller.error(watch.error);
          return;
        }
        if (next.done) {
          span.complete();
          controller.close();
          return;
        }
        if (next.value.type === "raw" && !keepRaw) continue;
        if (next.value.type === "error") span.failed(next.value.error);
        if (next.value.type === "finish") {
          onUsage?.(next.value.usage);
          span.usage(next.value.usage);
        }
        controller.enqueue(next.value);
        return;
      }
    },
    cancel(reason) {
      watch.disarm();
      span.cancelled();
      return reader.cancel(reason);
    },
  });
}

/** A timer that runs while the request waits on the model, and fails the request when it fires. */
class StallWatch {
  error: ModelStallError | undefined;
  readonly stalled: Promise<never>;
  private cancelTimer: (() => void) | undefined;
  private rejectStalled: (error: ModelStallError) => void = () => {};

  constructor(
    private readonly clock: TurnClock,
    private readonly timeoutMs: number,
    private readonly onStall: (error: ModelStallError) => void,
  ) {
    this.stalled = new Promise<never>((_resolve, reject) => {
      this.rejectStalled = reject;
    });
    // Only raced, never awaited alone: a stall with no one waiting is not an unhandled error.
    this.stalled.catch(() => {});
  }

  arm(): void {
    if (this.cancelTimer !== undefined || this.error !== undefined) return;
    this.cancelTimer = this.clock.startTimer(this.timeoutMs, () => {
      this.cancelTimer = undefined;
      this.error = new ModelStallError(this.timeoutMs);
      this.onStall(this.error);
      this.rejectStalled(this.error);
    });
  }

  disarm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }
}
