// One turn of the model: stream its reply, run the tools it calls (after the checks), loop until
// it answers or the step limit is reached. A stop from the person ends the turn at once, cancels
// the running tool, and still leaves a valid history to store.
import type { JSONSchema7 } from "@ai-sdk/provider";
import { jsonSchema, stepCountIs, streamText, tool } from "ai";
import type { FinishReason, LanguageModel, ModelMessage, TextStreamPart, ToolSet } from "ai";
import type { ToolPermissions } from "@mcp-chat-host/connection";
import type { HostTool, ToolProgress } from "./host-tool";
import { checkToolRequest, ToolCallBudget } from "./tool-checks";
import type { ToolRequest, ToolRequestHook } from "./tool-checks";
import { modelOutputFor, refusalOutcome } from "./tool-outcome";
import type { ModelToolOutcome } from "./tool-outcome";
import { messagesOfUnfinishedStep, newStepRecord } from "./step-record";
import type { StepRecord } from "./step-record";
import type { TurnEvent, TurnEventListener, TurnResult } from "./turn-events";

/** What {@link runTurn} needs for one turn. */
export interface RunTurnOptions {
  /** An AI SDK model object (see `resolveModel`). */
  model: Exclude<LanguageModel, string>;
  system?: string;
  /** The conversation so far, ending with the person's message (and any app context before it). */
  messages: ModelMessage[];
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

/** The text of a tool call's result when its arguments are not a JSON object. */
export const ARGUMENTS_NOT_OBJECT_REASON = "The arguments must be a JSON object.";

/**
 * Runs one turn of the model with the chat's tools. Each tool call the model makes passes the
 * checks of `tool-checks.ts` (permissions, the chat's hook, the budget) before it runs; a refused
 * call reaches the model as "Tool call rejected. <reason>". Never rejects: failures resolve with
 * status "error", a stop with status "stopped".
 *
 * @returns the turn's status, the messages to store after the person's message, and its text.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const turn = new TurnState(options.events);
  const setupError = validateOptions(options);
  if (setupError !== undefined) return turn.fail(setupError, []);
  if (options.signal?.aborted === true) return turn.stop([], undefined);

  const internal = new AbortController();
  turn.onListenerError = (error) => internal.abort(error);
  const onStop = (): void => internal.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onStop, { once: true });
  const stopped = new Promise<"stopped">((resolve) => {
    internal.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });

  const steps: StepRecord[] = [];
  let finishedSteps = 0;
  let completedMessages: ModelMessage[] = [];
  let finishReason: FinishReason | undefined;
  let streamError: unknown;

  try {
    const result = streamText({
      model: options.model,
      ...(options.system === undefined ? {} : { system: options.system }),
      messages: options.messages,
      tools: buildToolSet(options, turn, internal.signal),
      stopWhen: stepCountIs(options.maxSteps),
      abortSignal: internal.signal,
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
        if (part.type === "start-step") steps.push(newStepRecord());
        else if (part.type === "finish") finishReason = part.finishReason;
        else if (part.type === "error") streamError ??= part.error;
        else recordPart(steps.at(-1), part, turn);
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
  const text = joinStepTexts(steps);
  if (turn.listenerError !== undefined) {
    return turn.fail(turn.listenerError, [...completedMessages, ...unfinished], text);
  }
  if (internal.signal.aborted) return turn.stop([...completedMessages, ...unfinished], text);
  if (streamError !== undefined) {
    return turn.fail(streamError, [...completedMessages, ...unfinished], text);
  }
  return turn.complete({
    responseMessages: completedMessages,
    text,
    ...(finishReason === undefined ? {} : { finishReason }),
  });
}

/** Tracks the events of one turn: which calls are running, and whether events may still go out. */
class TurnState {
  private open = true;
  private toolEventsOpen = true;
  readonly running = new Map<string, string>();
  /** The arguments being streamed, by tool call id: the tool's name and the JSON text so far. */
  readonly inputs = new Map<string, { name: string; text: string }>();
  listenerError: unknown;
  onListenerError: (error: unknown) => void = () => {};

  constructor(private readonly listener: TurnEventListener | undefined) {}

  emit(event: TurnEvent): void {
    if (!this.open || this.listener === undefined) return;
    if (event.type.startsWith("tool-") && !this.toolEventsOpen) return;
    try {
      this.listener(event);
    } catch (error) {
      // Not swallowed: the turn ends with this error.
      if (this.listenerError === undefined) {
        this.listenerError = error;
        this.onListenerError(error);
      }
    }
  }

  complete(result: Omit<TurnResult, "status" | "error">): TurnResult {
    const value: TurnResult = { status: "complete", ...result };
    this.emit({ type: "finished", ...value });
    // A listener that failed on the last event still fails the turn; no event follows it.
    if (this.listenerError !== undefined) {
      return this.close({ ...value, status: "error", error: this.listenerError });
    }
    return this.close(value);
  }

  stop(responseMessages: ModelMessage[], text: string | undefined): TurnResult {
    this.toolEventsOpen = false;
    for (const [toolCallId, name] of this.running) {
      this.emitDirectly({ type: "tool-cancelled", toolCallId, name });
    }
    const value: TurnResult = { status: "stopped", responseMessages, text: text ?? "" };
    this.emitDirectly({ type: "finished", ...value });
    return this.close(value);
  }

  fail(error: unknown, responseMessages: ModelMessage[], text = ""): TurnResult {
    this.toolEventsOpen = false;
    this.emitDirectly({ type: "error", error, responseMessages });
    return this.close({ status: "error", responseMessages, text, error });
  }

  private emitDirectly(event: TurnEvent): void {
    if (!this.open || this.listener === undefined) return;
    try {
      this.listener(event);
    } catch {
      // The turn is already ending; its result still reports what happened.
    }
  }

  private close(result: TurnResult): TurnResult {
    this.open = false;
    this.running.clear();
    this.inputs.clear();
    return result;
  }
}

function validateOptions(options: RunTurnOptions): ModelTurnError | undefined {
  if (!Number.isInteger(options.maxSteps) || options.maxSteps < 1) {
    return new ModelTurnError("invalid-limit", "maxSteps must be a whole number of at least 1.");
  }
  if (!Number.isInteger(options.maxToolCalls) || options.maxToolCalls < 0) {
    return new ModelTurnError("invalid-limit", "maxToolCalls must be a whole number, 0 or more.");
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

function buildToolSet(options: RunTurnOptions, turn: TurnState, turnSignal: AbortSignal): ToolSet {
  const budget = new ToolCallBudget(options.maxToolCalls);
  const toolSet: ToolSet = {};
  for (const hostTool of options.tools) {
    toolSet[hostTool.name] = tool<unknown, ModelToolOutcome>({
      description: hostTool.description,
      ...(hostTool.title === undefined ? {} : { title: hostTool.title }),
      // The offline model reads titles from here (the model interface has no title field).
      ...(hostTool.title === undefined
        ? {}
        : { providerOptions: { offline: { title: hostTool.title } } }),
      // No validation: arguments reach the server as the model sent them (seed 1.3).
      inputSchema: jsonSchema<unknown>(hostTool.inputSchema as JSONSchema7),
      execute: (input, { toolCallId, abortSignal }) =>
        runToolCall({
          hostTool,
          input,
          toolCallId,
          signal: abortSignal ?? turnSignal,
          options,
          budget,
          turn,
        }),
      toModelOutput: ({ output }) => modelOutputFor(output),
    });
  }
  return toolSet;
}

async function runToolCall(call: {
  hostTool: HostTool;
  input: unknown;
  toolCallId: string;
  signal: AbortSignal;
  options: RunTurnOptions;
  budget: ToolCallBudget;
  turn: TurnState;
}): Promise<ModelToolOutcome> {
  const { hostTool, toolCallId, signal, turn } = call;
  const name = hostTool.name;
  const args = argumentsFromInput(call.input);
  if (args === undefined) {
    turn.emit({
      type: "tool-refused",
      toolCallId,
      name,
      check: "arguments",
      reason: ARGUMENTS_NOT_OBJECT_REASON,
    });
    return refusalOutcome(ARGUMENTS_NOT_OBJECT_REASON);
  }
  const request: ToolRequest = {
    toolCallId,
    name,
    arguments: args,
    annotations: hostTool.annotations,
    source: hostTool.source,
  };
  const check = await checkToolRequest({
    tool: hostTool,
    request,
    permissions: call.options.permissions,
    onToolRequest: call.options.onToolRequest,
    budget: call.budget,
  });
  if (!check.allowed) {
    const { check: checkName, reason, cause } = check;
    turn.emit({
      type: "tool-refused",
      toolCallId,
      name,
      check: checkName,
      reason,
      ...(cause === undefined ? {} : { cause }),
    });
    return refusalOutcome(reason);
  }
  turn.emit({ type: "tool-started", toolCallId, name, arguments: args });
  turn.running.set(toolCallId, name);
  let outcome: ModelToolOutcome;
  try {
    outcome = await hostTool.execute(args, {
      signal,
      toolCallId,
      onProgress: (progress) =>
        turn.emit({ type: "tool-progress", toolCallId, ...withoutUndefined(progress) }),
    });
  } catch (error) {
    // A stopped turn discards the call's result; let the stream see the abort.
    if (signal.aborted) throw error;
    outcome = { value: `The tool call failed: ${errorText(error)}`, isError: true };
  }
  turn.running.delete(toolCallId);
  const { value, isError, raw } = outcome;
  turn.emit({
    type: "tool-finished",
    toolCallId,
    name,
    isError,
    value,
    ...(raw === undefined ? {} : { raw }),
  });
  return outcome;
}

/** Seed 1.3: arguments go through as sent, but omitted or null ones are dropped. */
function argumentsFromInput(input: unknown): Record<string, unknown> | undefined {
  if (input === undefined || input === null) return {};
  if (typeof input !== "object" || Array.isArray(input)) return undefined;
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== null && value !== undefined),
  );
}

function recordPart(
  step: StepRecord | undefined,
  part: TextStreamPart<ToolSet>,
  turn: TurnState,
): void {
  if (part.type === "text-delta") {
    if (step !== undefined) step.text += part.text;
    turn.emit({ type: "text-delta", delta: part.text });
    return;
  }
  if (part.type === "tool-input-start") {
    turn.inputs.set(part.id, { name: part.toolName, text: "" });
    turn.emit({ type: "tool-input-started", toolCallId: part.id, name: part.toolName });
    return;
  }
  if (part.type === "tool-input-delta") {
    const input = turn.inputs.get(part.id);
    if (input === undefined) return;
    input.text += part.delta;
    turn.emit({
      type: "tool-input-delta",
      toolCallId: part.id,
      name: input.name,
      partialJson: input.text,
    });
    return;
  }
  if (part.type === "tool-input-end") {
    turn.inputs.delete(part.id);
    return;
  }
  if (step === undefined) return;
  if (part.type === "tool-call") {
    turn.inputs.delete(part.toolCallId);
    step.calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
  } else if (part.type === "tool-result" && part.preliminary !== true) {
    step.outputs.set(part.toolCallId, modelOutputFor(part.output as ModelToolOutcome));
  } else if (part.type === "tool-error") {
    step.outputs.set(part.toolCallId, { type: "error-text", value: errorText(part.error) });
  }
}

function joinStepTexts(steps: readonly StepRecord[]): string {
  return steps
    .map((step) => step.text)
    .filter((text) => text !== "")
    .join("\n\n");
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Drops the optional fields that are present but undefined (exactOptionalPropertyTypes). */
function withoutUndefined(progress: ToolProgress): {
  progress: number;
  total?: number;
  message?: string;
} {
  return {
    progress: progress.progress,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    ...(progress.message === undefined ? {} : { message: progress.message }),
  };
}
