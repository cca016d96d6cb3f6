import type { HttpAnswer } from "../provider-api";
import {
  asArray,
  asRecord,
  asText,
  completeView,
  finishMessage,
  messageDraft,
  type MessageDraft,
  type RequestView,
  type ViewMessage,
} from "../request-view";
import { openaiError, openaiInvalidRequest } from "./openai-errors";
import { checkOpenaiDuplicateNames, checkOpenaiToolName } from "./openai-tool-names";

/** @returns the input items of a Responses body (a string input is one user message). */
export function responsesInput(body: Record<string, unknown>): readonly unknown[] {
  return typeof body.input === "string"
    ? [{ role: "user", content: body.input }]
    : asArray(body.input);
}

/** @returns the function tool names a Responses body offers. */
function responsesToolNames(body: Record<string, unknown>): string[] {
  return asArray(body.tools).flatMap((tool) => {
    const record = asRecord(tool);
    return record?.type === "function" && typeof record.name === "string" ? [record.name] : [];
  });
}

function contentText(content: unknown): string[] {
  if (typeof content === "string") return content.length > 0 ? [content] : [];
  return asArray(content).flatMap((part) => {
    const record = asRecord(part);
    return typeof record?.text === "string" ? [record.text] : [];
  });
}

function roleOf(role: unknown): ViewMessage["role"] {
  if (role === "developer" || role === "system") return "system";
  return role === "assistant" ? "assistant" : "user";
}

/**
 * @returns the normalised view of a Responses request body. Items in a row that belong to one
 * turn are one message: assistant text with its `function_call`s, and consecutive
 * `function_call_output`s (a `tool` message).
 */
export function responsesView(body: Record<string, unknown>): RequestView {
  const drafts: MessageDraft[] = [];
  if (typeof body.instructions === "string" && body.instructions.length > 0) {
    drafts.push({ ...messageDraft("system"), texts: [body.instructions] });
  }
  const current = (role: ViewMessage["role"]): MessageDraft => {
    const last = drafts.at(-1);
    if (last !== undefined && last.role === role && (role === "assistant" || role === "tool")) {
      return last;
    }
    const draft = messageDraft(role);
    drafts.push(draft);
    return draft;
  };
  for (const entry of responsesInput(body)) {
    const item = asRecord(entry) ?? {};
    if (item.type === "function_call") {
      current("assistant").toolCalls.push({
        id: asText(item.call_id),
        name: asText(item.name),
        arguments: asText(item.arguments),
      });
    } else if (item.type === "function_call_output") {
      current("tool").toolResults.push({
        callId: asText(item.call_id),
        output: typeof item.output === "string" ? item.output : contentText(item.output).join("\n"),
      });
    } else if (item.type === undefined || item.type === "message") {
      current(roleOf(item.role)).texts.push(...contentText(item.content));
    }
  }
  return completeView({
    api: "responses",
    model: asText(body.model),
    stream: body.stream === true,
    toolNames: responsesToolNames(body),
    messages: drafts.map(finishMessage),
  });
}

function itemNotFound(id: string, store: boolean): HttpAnswer {
  return openaiError(404, {
    message: store
      ? `Item with id '${id}' not found.`
      : `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    type: "invalid_request_error",
    param: "input",
  });
}

function checkStoredItems(body: Record<string, unknown>): HttpAnswer | undefined {
  const store = body.store !== false;
  if (typeof body.previous_response_id === "string") {
    return openaiInvalidRequest(
      `Previous response with id '${body.previous_response_id}' not found.`,
      "previous_response_id",
      "previous_response_not_found",
    );
  }
  for (const entry of responsesInput(body)) {
    const item = asRecord(entry);
    if (item?.type === "item_reference") return itemNotFound(asText(item.id), store);
    if (
      item?.type === "reasoning" &&
      !store &&
      typeof item.id === "string" &&
      typeof item.encrypted_content !== "string"
    ) {
      return itemNotFound(item.id, store);
    }
  }
  return undefined;
}

function checkCallPairs(input: readonly unknown[]): HttpAnswer | undefined {
  const calls: string[] = [];
  const outputs = new Set<string>();
  for (const entry of input) {
    const item = asRecord(entry);
    if (item?.type === "function_call") calls.push(asText(item.call_id));
    if (item?.type === "function_call_output") {
      const callId = asText(item.call_id);
      if (!calls.includes(callId)) {
        return openaiInvalidRequest(
          `No tool call found for function call output with call_id ${callId}.`,
          "input",
        );
      }
      outputs.add(callId);
    }
  }
  const unanswered = calls.find((callId) => !outputs.has(callId));
  return unanswered === undefined
    ? undefined
    : openaiInvalidRequest(`No tool output found for function call ${unanswered}.`, "input");
}

/**
 * Refuses what the Responses API refuses, for a stand-in that keeps no items (as with
 * `store: false` or a zero-data-retention organisation): no model; function names outside
 * `^[a-zA-Z0-9_-]+$` or past 64 characters; two tools with one name; `previous_response_id`
 * (400 `previous_response_not_found`); any `item_reference`, and with `store: false` a reasoning
 * item sent by id without its `encrypted_content` (404 "Item with id … not found"); a
 * `function_call` with no `function_call_output`, or an output with no call.
 *
 * @returns the API's answer, or undefined when the body is accepted.
 */
export function validateResponses(body: Record<string, unknown>): HttpAnswer | undefined {
  if (typeof body.model !== "string" || body.model.length === 0) {
    return openaiInvalidRequest(
      "Missing required parameter: 'model'.",
      "model",
      "missing_required_parameter",
    );
  }
  for (const [index, tool] of asArray(body.tools).entries()) {
    const record = asRecord(tool);
    if (record?.type !== "function") continue;
    const refusal = checkOpenaiToolName(record.name, `tools[${index}].name`);
    if (refusal !== undefined) return refusal;
  }
  const input = responsesInput(body);
  for (const [index, entry] of input.entries()) {
    const item = asRecord(entry);
    if (item?.type !== "function_call") continue;
    const refusal = checkOpenaiToolName(item.name, `input[${index}].name`);
    if (refusal !== undefined) return refusal;
  }
  return (
    checkOpenaiDuplicateNames(responsesToolNames(body)) ??
    checkStoredItems(body) ??
    checkCallPairs(input)
  );
}
