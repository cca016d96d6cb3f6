import type { IncomingHttpHeaders } from "node:http";
import type { Fault } from "./fault";
import type { ProviderApiName, RequestView } from "./request-view";

/** An HTTP answer other than a stream: a status, headers and a JSON body. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** One server-sent event. `finish` marks the events a `no-finish` fault leaves out. */
export interface StreamEvent {
  readonly event?: string;
  readonly data: string;
  readonly finish?: boolean;
}

/** How a request presented its key: never the key itself. */
export type AuthState = "valid" | "invalid" | "missing";

/** The result of checking a request's key. */
export interface AuthCheck {
  readonly auth: AuthState;
  /** The refusal to send when the key is missing or wrong. */
  readonly refusal?: HttpAnswer;
}

/** A reply with everything the wire needs decided: call ids, argument text, token counts. */
export interface ResolvedReply {
  readonly text: string;
  readonly toolCalls: readonly { id: string; name: string; arguments: string }[];
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens: number;
    readonly cacheCreationInputTokens: number;
  };
}

/** A reply rendered for the wire: the non-streaming body and the stream's events. */
export interface RenderedReply {
  readonly json: unknown;
  readonly events: readonly StreamEvent[];
  /**
   * @param variant the Responses API event to send (`error` or `response.failed`); the other
   * APIs have one kind.
   * @param sequenceNumber the position the event takes in the stream.
   * @returns the API's in-stream error event for this reply.
   */
  streamError(variant: "error" | "response.failed", sequenceNumber: number): StreamEvent;
}

/** Prompt token accounting of one request, cache included. */
export interface InputAccount {
  /**
   * Input tokens as the API reports them: every prompt token for OpenAI (`prompt_tokens`,
   * `input_tokens` include cached ones), the uncached remainder for Anthropic.
   */
  readonly inputTokens: number;
  readonly cachedTokens: number;
  readonly cacheCreationTokens: number;
}

/** One provider HTTP API as the stand-in serves it. */
export interface ProviderApi {
  readonly name: ProviderApiName;
  /** The path it answers `POST` on, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The response header carrying the request id (`x-request-id`, `request-id`). */
  readonly requestIdHeader: string;
  newRequestId(): string;
  newToolCallId(): string;
  checkAuth(headers: IncomingHttpHeaders, expectedKey: string): AuthCheck;
  /** @returns the normalised view of a request body (tolerant of malformed bodies). */
  view(body: Record<string, unknown>): RequestView;
  /** @returns the real API's refusal of this body, if it refuses it. */
  validate(body: Record<string, unknown>, headers: IncomingHttpHeaders): HttpAnswer | undefined;
  /** Counts the prompt's tokens and updates the prompt cache. */
  accountInput(body: Record<string, unknown>): InputAccount;
  render(reply: ResolvedReply, view: RequestView, body: Record<string, unknown>): RenderedReply;
  /** @returns the real body of an HTTP error fault. */
  faultAnswer(fault: Extract<Fault, { kind: "http" }>, view: RequestView): HttpAnswer;
  /** @returns the refusal of a body that is not JSON. */
  unparsableBody(): HttpAnswer;
}
