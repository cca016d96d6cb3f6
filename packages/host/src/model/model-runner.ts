// One turn of the model: stream its reply, run the tools it calls (after the checks), loop until
// it answers or the step limit is reached. A stop from the person ends the turn at once, cancels
// the running tool, and still leaves a valid history to store. Every failure ends the turn with
// status "error" and a `failure` in the person's words (model-failure.ts).
import { stepCountIs, streamText } from "ai";
import type { FinishReason, LanguageModel, ModelMessage } from "ai";
import type { ToolPermissions } from "@mcp-chat-host/connection";
import { guardModel } from "./guarded-model";
import type { HostTool } from "./host-tool";
import { RefusedCalls } from "./invalid-tool-call";
import { ModelCutOffError, describeFailure, hostFailure } from "./model-failure";
import { usesCacheMarkers, withCacheMarkers } from "./prompt-caching";
import { messagesOfUnfinishedStep, newStepRecord } from "./step-record";
import type { StepRecord } from "./step-record";
import { joinStepTexts, recordPart } from "./stream-parts";
import type { ToolRequestHook } from "./tool-checks";
import { systemClock } from "./turn-clock";
import type { TurnClock } from "./turn-clock";
import type { TurnEventListener, TurnResult } from "./turn-events";
import { TurnState } from "./turn-state";
import { buildToolSet } from "./turn-tools";
import { addRequestUsage, addStepUsage } from "./turn-usage";

/** The default of {@link RunTurnOptions.stallTimeoutMs}: one minute. */
const DEFAULT_STALL_TIMEOUT_MS = 60_000;
/** The default of {@link RunTurnOptions.retryAfterCapMs}: 30 seconds. */
const DEFAULT_RETRY_AFTER_CAP_MS = 30_000;
/** How many times a request the provider was too busy for is sent again. */
const MAX_RETRIES = 2;

/** What {@link runTurn} needs for one turn. */
export interface RunTurnOptions {
  /** An AI SDK model object (see `resolveModel`). */
  model: Exclude<LanguageModel, string>;
  system?: string;
  /** The conversation so far, ending with the person's message (and any app context before it). */
  messages: ModelMessage[];
  /**
   * How many leading `messages` are stored history that the next turn resends unchanged. For
   * Anthropic the last of them (and the system prompt, and the last tool) carries a prompt-cache
   * breakpoint. Absent or 0: no message is marked.
   */
  stablePrefixLength?: number;
  /** The model-visible tools of the chat, in the order the model is shown them. */
  tools: readonly HostTool[];
  /** The most model steps (requests) in the turn; a step that calls tools is followed by another. */
  maxSteps: number;
  /** The most tool calls that may run in the turn; later calls are refused. */
  maxToolCalls: number;
  /** What annotated tools are allowed to do (`web`, `write`). */
  permissions: ToolPermissions;
  /** The chat's hook on each tool call, asked after the permission check passed. */
  onToolRequest?: ToolRequestHook;
  /** Aborting it stops the turn: the stream ends, the running tool's signal aborts. */
  signal?: AbortSignal;
  /** Receives the events of the turn (text deltas, tool progress, the end). */
  events?: TurnEventListener;
  /**
   * The longest wait for the model's next chunk (or its first) before the request is closed and
   * the turn fails as "stalled"; 60 000 by default. Time spent running tools does not count.
   */
  stallTimeoutMs?: number;
  /**
   * The longest `retry-after` (429, 503, 529) the turn waits out before sending the request
   * again; a longer one fails the turn at once, saying when to try again. 30 000 by default.
   */
  retryAfterCapMs?: number;
  /** The time source for retries and the stall watch; the system clock by default. */
  clock?: TurnClock;
  /** Told of each request sent to the provider (each step, each retry), for the metrics. */
  onModelRequest?: () => void;
}

/** A local error of the model runner; the turn resolves with it as `error`. */
export class ModelTurnError extends Error {
  override readonly name = "ModelTurnError";

  constructor(
    readonly code: "duplicate-tool-name" | "invalid-limit",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs one turn of the model with the chat's tools. Each tool call the model makes passes the
 * checks of `tool-checks.ts` (permissions, the chat's hook, the budget) before it runs; a refused
 * call, a call of an unknown tool or with unreadable arguments reaches the model as
 * "Tool call rejected. <reason>". A request the provider is too busy for (429, 503, 529) is sent
 * again up to twice while nothing of the turn has been shown. Never rejects: failures resolve
 * with status "error" and a `failure`, a stop with status "stopped".
 *
 * @returns the turn's status, the messages to store after the person's message, its text, and
 *   the tokens used when the provider reported them.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const turn = new TurnState(options.events);
  const setupError = validateOptions(options);
  if (setupError !== undefined) return turn.fail(setupError, hostFailure(setupError.message), []);
  if (options.signal?.aborted === true) return turn.stop([], undefined);

  const clock = options.clock ?? systemClock;
  const internal = new AbortController();
  turn.onListenerError = (error) => internal.abort(error);
  const onStop = (): void => internal.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onStop, { once: true });
  const stopped = new Promise<"stopped">((resolve) => {
    internal.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });

  let requestId: string | undefined;
  const chosen = options.model;
  const guarded = chosen.specificationVersion === "v3";
  const model =
    chosen.specificationVersion === "v3"
      ? guardModel(chosen, {
          stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
          retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
          maxRetries: MAX_RETRIES,
          clock,
          mayRetry: () => !turn.hasOutput,
          ...(options.onModelRequest === undefined ? {} : { onRequest: options.onModelRequest }),
          onResponse: (headers) => {
            requestId = headers?.["x-request-id"] ?? headers?.["request-id"] ?? requestId;
          },
          onUsage: (usage) => {
            turn.usage = addRequestUsage(turn.usage, usage);
          },
        })
      : options.model;
  const caching = usesCacheMarkers(options.model);
  const prompt = caching
    ? withCacheMarkers({
        system: options.system,
        messages: options.messages,
        stablePrefixLength: options.stablePrefixLength,
      })
    : { system: undefined, messages: options.messages };
  const system = prompt.system ?? options.system;
  // The runner's answers to invalid calls, replacing the SDK's own.
  const refused = new RefusedCalls(new Set(options.tools.map((hostTool) => hostTool.name)));

  const steps: StepRecord[] = [];
  let finishedSteps = 0;
  let completedMessages: ModelMessage[] = [];
  let finishReason: FinishReason | undefined;
  let streamError: unknown;

  try {
    const result = streamText({
      model,
      ...(system === undefined ? {} : { system }),
      messages: prompt.messages,
      tools: buildToolSet(options, turn, internal.signal, caching),
      stopWhen: stepCountIs(options.maxSteps),
      abortSignal: internal.signal,
      // The runner retries by itself (guarded-model.ts), only before anything was shown.
      maxRetries: 0,
      prepareStep: ({ steps: finished, messages }) => {
        refused.noteSteps(finished);
        return { messages: refused.applyTo(messages) };
      },
      onStepFinish: (step) => {
        // Cumulative: the messages of every finished step so far.
        completedMessages = step.response.messages;
        finishedSteps += 1;
      },
      // Errors arrive as "error" parts of the stream, handled below.
      onError: () => {},
    });
    const reader = result.fullStream.getReader();
    try {
      for (;;) {
        const next = await Promise.race([reader.read(), stopped]);
        if (next === "stopped" || next.done) break;
        const part = next.value;
        if (part.type === "start-step") {
          steps.push(newStepRecord());
          if (steps.length > 1) turn.emit({ type: "step-started", step: steps.length - 1 });
        } else if (part.type === "finish-step") {
          if (!guarded) turn.usage = addStepUsage(turn.usage, part.usage);
        } else if (part.type === "finish") {
          finishReason = part.finishReason;
          // What every adapter reports when the stream ended without the provider's finish
          // event (OpenAI `response.completed`, Anthropic `message_stop`, a chat `finish_reason`).
          if (part.finishReason === "other" && part.rawFinishReason === undefined) {
            streamError ??= new ModelCutOffError();
          }
        } else if (part.type === "error") {
          streamError ??= part.error;
        } else if (part.type === "tool-call" && part.invalid === true) {
          const { check, reason, output } = refused.note(part);
          const step = steps.at(-1);
          step?.calls.set(part.toolCallId, { toolName: part.toolName, input: {} });
          step?.outputs.set(part.toolCallId, output);
          turn.inputs.delete(part.toolCallId);
          const { toolCallId, toolName: name } = part;
          turn.emit({ type: "tool-output-denied", toolCallId, name, check, reason });
        } else if (!(part.type === "tool-error" && refused.has(part.toolCallId))) {
          recordPart(steps.at(-1), part, turn);
        }
      }
    } finally {
      // Stop reading; when the turn was stopped this also tears the stream down.
      reader.cancel().catch(() => {});
    }
  } catch (error) {
    streamError ??= error;
  } finally {
    options.signal?.removeEventListener("abort", onStop);
  }

  const unfinished = steps.slice(finishedSteps).flatMap(messagesOfUnfinishedStep);
  const soFar = refused.applyTo([...completedMessages, ...unfinished]);
  const text = joinStepTexts(steps);
  if (turn.listenerError !== undefined) {
    return turn.fail(turn.listenerError, hostFailure(), soFar, text);
  }
  if (internal.signal.aborted) return turn.stop(soFar, text);
  if (streamError !== undefined) {
    const failure = describeFailure(streamError, {
      provider: options.model.provider,
      now: clock.now(),
      ...(requestId === undefined ? {} : { requestId }),
    });
    return turn.fail(streamError, failure, soFar, text);
  }
  return turn.complete({
    responseMessages: refused.applyTo(completedMessages),
    text,
    ...(finishReason === undefined ? {} : { finishReason }),
  });
}

function validateOptions(options: RunTurnOptions): ModelTurnError | undefined {
  if (!Number.isInteger(options.maxSteps) || options.maxSteps < 1) {
    return new ModelTurnError("invalid-limit", "maxSteps must be a whole number of at least 1.");
  }
  if (!Number.isInteger(options.maxToolCalls) || options.maxToolCalls < 0) {
    return new ModelTurnError("invalid-limit", "maxToolCalls must be a whole number, 0 or more.");
  }
  const { stallTimeoutMs, retryAfterCapMs, stablePrefixLength } = options;
  if (stallTimeoutMs !== undefined && !(stallTimeoutMs > 0 && Number.isFinite(stallTimeoutMs))) {
    return new ModelTurnError("invalid-limit", "stallTimeoutMs must be a number of ms above 0.");
  }
  if (retryAfterCapMs !== undefined && !(retryAfterCapMs >= 0)) {
    return new ModelTurnError(
      "invalid-limit",
      "retryAfterCapMs must be a number of ms, 0 or more.",
    );
  }
  if (
    stablePrefixLength !== undefined &&
    (!Number.isInteger(stablePrefixLength) || stablePrefixLength < 0)
  ) {
    return new ModelTurnError(
      "invalid-limit",
      "stablePrefixLength must be a whole number, 0 or more.",
    );
  }
  const seen = new Set<string>();
  for (const hostTool of options.tools) {
    if (seen.has(hostTool.name)) {
      return new ModelTurnError(
        "duplicate-tool-name",
        `Two tools are named "${hostTool.name}"; give the model each name once (rename one or leave one out).`,
      );
    }
    seen.add(hostTool.name);
  }
  return undefined;
}
