// The events of one turn and how it ends: which calls are running, whether events may still go
// out, and the result each ending gives (complete, stopped, error). The last event of a turn is
// always `finished` or `error`, and nothing follows it.
import type { ModelMessage } from "ai";
import { hostFailure } from "./model-failure";
import type {
  TurnEvent,
  TurnEventListener,
  TurnFailure,
  TurnResult,
  TurnUsage,
} from "./turn-events";

/** Tracks the events of one turn: which calls are running, and whether events may still go out. */
export class TurnState {
  private open = true;
  private toolEventsOpen = true;
  /** Whether any event went out: after that a failed request is not sent again. */
  hasOutput = false;
  readonly running = new Map<string, string>();
  /** The arguments being streamed, by tool call id: the tool's name and the JSON text so far. */
  readonly inputs = new Map<string, { name: string; text: string }>();
  /** The tokens of the finished steps so far. */
  usage: TurnUsage | undefined;
  listenerError: unknown;
  onListenerError: (error: unknown) => void = () => {};

  constructor(private readonly listener: TurnEventListener | undefined) {}

  /** Sends an event while the turn is open; a listener that throws ends the turn. */
  emit(event: TurnEvent): void {
    if (!this.open) return;
    if (event.type.startsWith("tool-") && !this.toolEventsOpen) return;
    this.hasOutput = true;
    if (this.listener === undefined) return;
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

  /**
   * Ends the turn as complete with a `finished` event.
   *
   * @returns the result (status "error" when the listener threw on that last event).
   */
  complete(result: Pick<TurnResult, "responseMessages" | "text" | "finishReason">): TurnResult {
    const value: TurnResult = this.withUsage({ status: "complete", ...result });
    this.emit({ type: "finished", ...value });
    // A listener that failed on the last event still fails the turn; no event follows it.
    if (this.listenerError !== undefined) {
      return this.close({
        ...value,
        status: "error",
        error: this.listenerError,
        failure: hostFailure(),
      });
    }
    return this.close(value);
  }

  /**
   * Ends the turn as stopped: each running call gets `tool-cancelled`, then `finished`.
   *
   * @returns the result.
   */
  stop(responseMessages: ModelMessage[], text: string | undefined): TurnResult {
    this.toolEventsOpen = false;
    for (const [toolCallId, name] of this.running) {
      this.emitDirectly({ type: "tool-cancelled", toolCallId, name });
    }
    const value = this.withUsage({ status: "stopped", responseMessages, text: text ?? "" });
    this.emitDirectly({ type: "finished", ...value });
    return this.close(value);
  }

  /**
   * Ends the turn as failed with an `error` event carrying the failure.
   *
   * @returns the result.
   */
  fail(
    error: unknown,
    failure: TurnFailure,
    responseMessages: ModelMessage[],
    text = "",
  ): TurnResult {
    this.toolEventsOpen = false;
    this.emitDirectly({ type: "error", error, failure, responseMessages });
    return this.close(this.withUsage({ status: "error", responseMessages, text, error, failure }));
  }

  private withUsage(result: TurnResult): TurnResult {
    return this.usage === undefined ? result : { ...result, usage: this.usage };
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
