import type { Fault } from "./fault";
import type { AuthState } from "./provider-api";
import type { ProviderApiName, RequestView } from "./request-view";
import { asArray, asRecord, asText } from "./request-view";
import type { ScriptedReply } from "./scripted-reply";

/** Request headers kept in the record. Keys (`authorization`, `x-api-key`) never are. */
export const recordedHeaderNames = [
  "accept",
  "anthropic-beta",
  "anthropic-version",
  "content-type",
  "openai-organization",
  "openai-project",
  "user-agent",
] as const;

/**
 * One request the stand-in received, as it went. The fields after `view` change while the
 * exchange goes on; `settled` resolves when it is over (answered, cut, or closed by either side).
 */
export interface RecordedRequest {
  /** 0 for the first request the stand-in received, then 1, 2… */
  readonly sequence: number;
  /** The API the path belongs to; undefined for an unknown path. */
  readonly api: ProviderApiName | undefined;
  readonly method: string;
  readonly path: string;
  /** Whether a key was presented and was the expected one. The key itself is never kept. */
  readonly auth: AuthState;
  readonly headers: Readonly<Partial<Record<(typeof recordedHeaderNames)[number], string>>>;
  /** The parsed JSON body; undefined when it was not JSON. */
  readonly body: unknown;
  /** The normalised view; undefined when the body was not a JSON object. */
  readonly view: RequestView | undefined;
  /** The status sent; undefined until the answer starts. */
  status: number | undefined;
  /** The fault played on this request, if any. */
  fault: Fault | undefined;
  /** The reply sent (or being streamed), if any. */
  reply: ScriptedReply | undefined;
  /** True when the client closed the connection before the answer ended. */
  closedByClient: boolean;
  /** The message of an error the responder threw (answered with a 500). */
  responderError: string | undefined;
  readonly settled: Promise<void>;
}

/**
 * @returns the names of the function tools the request offered, read from the wire
 * (`tools[].function.name` for Chat Completions, `tools[].name` otherwise).
 */
export function toolNamesOf(request: RecordedRequest): string[] {
  const body = asRecord(request.body) ?? {};
  return asArray(body.tools).flatMap((tool) => {
    const record = asRecord(tool);
    const name =
      request.api === "chat-completions" ? asRecord(record?.function)?.name : record?.name;
    return typeof name === "string" ? [name] : [];
  });
}

/**
 * @returns the roles of the request's messages as on the wire: `messages[].role` (Chat
 * Completions, Anthropic; Anthropic's top-level `system` is not a message), and for the Responses
 * API each input item's `role`, or its `type` when it has none (`function_call`,
 * `function_call_output`, `item_reference`…).
 */
export function messageRolesOf(request: RecordedRequest): string[] {
  const body = asRecord(request.body) ?? {};
  if (request.api === "responses") {
    if (typeof body.input === "string") return ["user"];
    return asArray(body.input).map((item) => {
      const record = asRecord(item);
      return asText(record?.role ?? record?.type);
    });
  }
  return asArray(body.messages).map((message) => asText(asRecord(message)?.role));
}
