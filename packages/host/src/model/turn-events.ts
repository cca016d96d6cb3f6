import type { JSONValue } from "@ai-sdk/provider";
import type { FinishReason, ModelMessage } from "ai";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ToolCheckName } from "./tool-checks";

/** How a turn ended: it ran to its end, the person stopped it, or it failed. */
export type TurnStatus = "complete" | "stopped" | "error";

/** Tokens a provider reported for a turn (summed over its steps); absent fields were not reported. */
export interface TurnUsage {
  /** All input tokens, the cached ones included. */
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens read from the provider's prompt cache (a part of `inputTokens`). */
  cachedInputTokens?: number;
}

/** What kind of failure ended a turn, for the person's message and the Retry button. */
export type TurnFailureKind =
  | "auth"
  | "rate-limited"
  | "overloaded"
  | "provider-error"
  | "refused"
  | "stalled"
  | "cut-off"
  | "malformed"
  | "network"
  | "host";

/**
 * Why a turn failed, in words for the person: `message` is one or two plain sentences saying
 * what happened and what to do; never raw JSON, a stack or a key fragment.
 */
export interface TurnFailure {
  kind: TurnFailureKind;
  message: string;
  /** Whether running the turn again may help (Retry). */
  retryable: boolean;
  /** For the log only: the provider, HTTP status and request id, when known. */
  provider?: string;
  status?: number;
  requestId?: string;
  /** When the provider said to come back (ms since the epoch), for rate limits. */
  retryAt?: number;
}

/** What a turn leaves behind; also the value {@link runTurn} resolves with. */
export interface TurnResult {
  status: TurnStatus;
  /**
   * The assistant and tool messages of the turn, to store after the person's message. When the
   * turn was stopped, they end with what had been said, and every call that had started gets a
   * result (a call cut short reads "Tool call cancelled: ..."), so the history stays valid.
   */
  responseMessages: ModelMessage[];
  /** The text the model said in the turn, steps joined with a blank line. */
  text: string;
  /** The model's reason for ending its last step, when it got that far. */
  finishReason?: FinishReason;
  /** Why the turn failed (status "error"). */
  error?: unknown;
  /** The failure in the person's words (status "error"). */
  failure?: TurnFailure;
  /** Tokens the provider reported, when it did. */
  usage?: TurnUsage;
}

/**
 * What happens during a turn, in order, for relaying to the browser. Events stop once the turn's
 * promise has resolved: a tool that ignores its abort signal cannot report after a stop.
 */
export type TurnEvent =
  | { type: "text-delta"; delta: string }
  /**
   * A new model step began (after a step that called tools); text that follows is a new
   * paragraph. `step` counts from 0, so the first event of a turn has step 1.
   */
  | { type: "step-started"; step: number }
  /**
   * The model began writing a tool call's arguments (providers that stream them); the call
   * itself follows as `tool-call` or `tool-output-denied` once they are complete.
   */
  | { type: "tool-input-start"; toolCallId: string; name: string }
  /** More of a tool call's arguments; `partialJson` is all the JSON text written so far. */
  | { type: "tool-input-delta"; toolCallId: string; name: string; partialJson: string }
  /**
   * The call's arguments are complete and it passed the checks: it runs now. (The names of the
   * tool events are the AI SDK's stream parts, `tool-input-start` to `tool-result`.)
   */
  | { type: "tool-call"; toolCallId: string; name: string; arguments: Record<string, unknown> }
  | {
      type: "tool-progress";
      toolCallId: string;
      progress: number;
      total?: number;
      message?: string;
    }
  /** The call returned (`isError`: it failed, or its tool answered with an error result). */
  | {
      type: "tool-result";
      toolCallId: string;
      name: string;
      isError: boolean;
      value: JSONValue;
      raw?: CallToolResult;
    }
  /** The call was refused before it ran (`check` says which check refused it). */
  | {
      type: "tool-output-denied";
      toolCallId: string;
      name: string;
      check: ToolCheckName;
      reason: string;
      /** The error behind a failed hook, for the log. */
      cause?: unknown;
    }
  /** A call that had started when the person stopped the turn; a card waiting on it closes. */
  | { type: "tool-cancelled"; toolCallId: string; name: string }
  /** The turn ended (complete or stopped); carries the same fields as the result. */
  | ({ type: "finished" } & Omit<TurnResult, "error">)
  /** The turn failed; `failure` says why in the person's words, `error` is for the log. */
  | { type: "error"; error: unknown; failure: TurnFailure; responseMessages: ModelMessage[] };

/** Receives the events of a turn. A listener that throws ends the turn with status "error". */
export type TurnEventListener = (event: TurnEvent) => void;
