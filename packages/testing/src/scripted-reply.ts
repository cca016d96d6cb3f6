import type { Fault } from "./fault";
import type { RequestView } from "./request-view";

/** A tool call the stand-in model makes. */
export interface ScriptedToolCall {
  /** The tool's name as offered in the request. */
  readonly name: string;
  /** The arguments: an object (sent as its JSON) or JSON text sent as it is. Default `{}`. */
  readonly arguments?: Readonly<Record<string, unknown>> | string;
}

/** Token counts to report instead of the estimate (characters / 4). */
export interface ReplyUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Prompt tokens read from the cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cachedInputTokens?: number;
  /** Anthropic `cache_creation_input_tokens`. */
  readonly cacheCreationInputTokens?: number;
}

/** What the stand-in model answers: some text, some tool calls, or both (text first). */
export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: ReplyUsage;
}

/** A reply that is a failure instead of an answer. */
export interface FaultReply {
  readonly fault: Fault;
}

/** What a responder returns for one request. */
export type ResponderResult = ScriptedReply | FaultReply;

/**
 * Decides the reply to one request from its normalised view. It may be async: a test can hold a
 * reply until it releases a promise.
 */
export type Responder = (view: RequestView) => ResponderResult | Promise<ResponderResult>;

/** @returns true when the result is a fault rather than an answer. */
export function isFaultReply(result: ResponderResult): result is FaultReply {
  return "fault" in result;
}
