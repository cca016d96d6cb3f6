/** Which provider HTTP API a request used. */
export type ProviderApiName = "chat-completions" | "responses" | "messages";

/** A tool call the model made earlier, as the request carries it back. */
export interface ViewToolCall {
  /** The call id on the wire (`call_…`, `toolu_…`). */
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text. */
  readonly arguments: string;
}

/** A tool result the request carries back to the model. */
export interface ViewToolResult {
  /** The id of the call it answers. */
  readonly callId: string;
  /** The output as text (JSON text when the wire held structured content). */
  readonly output: string;
}

/**
 * One message of the conversation, the same shape for every API. Roles are the wire's own, with
 * OpenAI `developer` read as `system`, Anthropic's top-level `system` as a first `system`
 * message, and Responses `function_call_output` items as `tool` messages.
 */
export interface ViewMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  /** Every text part joined with newlines ("" when there is none). */
  readonly text: string;
  readonly toolCalls: readonly ViewToolCall[];
  readonly toolResults: readonly ViewToolResult[];
}

/** A normalised reading of one request, what a responder decides its reply from. */
export interface RequestView {
  readonly api: ProviderApiName;
  readonly model: string;
  readonly stream: boolean;
  /** Names of the function tools offered, in request order. */
  readonly toolNames: readonly string[];
  readonly messages: readonly ViewMessage[];
  /** The text of the last message from the person (role `user` with text), if any. */
  readonly lastUserText: string | undefined;
  /** True when the last message carries tool results (the model is asked to go on after a tool). */
  readonly lastInputIsToolResult: boolean;
}

/**
 * Completes a view from what every API reading produces.
 *
 * @returns the view with `lastUserText` and `lastInputIsToolResult` worked out.
 */
export function completeView(
  partial: Pick<RequestView, "api" | "model" | "stream" | "toolNames" | "messages">,
): RequestView {
  const lastUser = [...partial.messages]
    .reverse()
    .find((message) => message.role === "user" && message.text.length > 0);
  const last = partial.messages.at(-1);
  return {
    ...partial,
    lastUserText: lastUser?.text,
    lastInputIsToolResult: last !== undefined && last.toolResults.length > 0,
  };
}

/** A message under construction; see {@link ViewMessage}. */
export interface MessageDraft {
  role: ViewMessage["role"];
  texts: string[];
  toolCalls: ViewToolCall[];
  toolResults: ViewToolResult[];
}

/** @returns an empty draft of a message with this role. */
export function messageDraft(role: ViewMessage["role"]): MessageDraft {
  return { role, texts: [], toolCalls: [], toolResults: [] };
}

/** @returns the finished message of a draft. */
export function finishMessage(draft: MessageDraft): ViewMessage {
  return {
    role: draft.role,
    text: draft.texts.join("\n"),
    toolCalls: draft.toolCalls,
    toolResults: draft.toolResults,
  };
}

/** @returns the value as text: itself when a string, else its JSON. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

/** @returns the value when it is a plain object, else undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** @returns the value when it is an array, else an empty array. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
