// The two halves of a reply: its start (the model's input built, the reply stored) and its run
// (the model streams, the turn records it, the end is stored).
import { toWireError } from "../errors/to-wire-error";
import type { ModelMessage } from "ai";
import { chatAppContext } from "../chat/chat-app-context";
import type { Chat } from "../session/chat";
import { withAppContext } from "../context/context-relay";
import type { HostTool } from "../model/host-tool";
import { runTurn } from "../model/model-runner";
import type { ConversationRecord, MessageFromApp, MessageRecord } from "../store/host-store";
import { appTurnCheck } from "./app-turn-check";
import type { ToolRequest } from "../model/tool-checks";
import { annotateSpan } from "../telemetry/spans";
import { historyForTurn } from "./history";
import { framedText, personContent } from "./person-content";
import { messageToWire } from "./message-wire";
import { turnSpanAttributes } from "./turn-span";
import { turnTools } from "./tool-execution";
import { STOPPED_REASON, type Turn, type TurnDeps } from "./turn";

/** Why a card whose arguments were streaming got no call (the model's arguments were not valid). */
const CALL_NOT_RUN_REASON = "The tool call did not run: the model's arguments could not be read.";

/** A reply whose start is stored: the model's messages, and how many of them repeat the history. */
export interface StartedReply {
  reply: MessageRecord;
  messages: ModelMessage[];
  prefixLength: number;
  /** The app that wrote the message this reply answers (`submit` mode), if an app did. */
  fromApp?: MessageFromApp;
}

/**
 * Builds the model's input (history and app context) and stores the start of the reply. The
 * context the model is told is kept for the inspector and sent to the tab.
 *
 * @returns the started reply, or null when the reply could not be stored (the tab is told).
 */
export async function beginReply(
  deps: TurnDeps,
  turn: Turn,
  chat: Chat,
  conversation: ConversationRecord,
  history: MessageRecord[],
  person: MessageRecord,
): Promise<StartedReply | null> {
  const { context } = deps;
  const text = person.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  const contextText = chatAppContext(context.cards, [...context.chats.keys()], chat.key);
  const injected = (chat.host?.context ?? true) && contextText !== null;
  const builtAt = context.services.now();
  context.lastContext.set(chat.key, { text: contextText, builtAt, injected });
  context.emit("context:built", { chatId: chat.key, text: contextText, builtAt, injected });
  const content = personContent(person.parts, person.fromApp);
  const past = historyForTurn(history.map(messageToWire), framedText(content, text));
  const messages = withAppContext(past, { role: "user", content }, injected ? contextText : null);
  let reply: MessageRecord;
  try {
    reply = await context.services.store.appendMessage({
      conversationId: conversation.id,
      chatId: chat.key,
      role: "assistant",
      parts: [],
      status: "streaming",
    });
  } catch (error) {
    context.logger.error({ err: error }, "could not store the start of a reply");
    context.emit("notice", {
      level: "error",
      message: `The reply could not be saved: ${toWireError(error).message}`,
    });
    return null;
  }
  turn.reply = reply;
  context.emit("message:created", { message: messageToWire(reply) });
  context.emit("turn:state", { chatId: chat.key, conversationId: conversation.id, running: true });
  return {
    reply,
    messages,
    prefixLength: past.length,
    ...(person.fromApp === undefined ? {} : { fromApp: person.fromApp }),
  };
}

/**
 * Runs the model for a started reply with the chat's tools and limits, the turn recording each
 * event; then stores the reply's end and tells the tab the chat is no longer answering.
 */
export async function runReply(
  deps: TurnDeps,
  turn: Turn,
  chat: Chat,
  started: StartedReply,
): Promise<void> {
  const { context } = deps;
  const { messages } = started;
  const tools = await turnTools(deps, chat, turn).catch((error: unknown) => {
    context.logger.warn({ err: error }, "could not list a chat's tools");
    return [] as HostTool[];
  });
  const chatCheck = chat.options.onToolRequest;
  // A reply to an app's message checks its calls as the app's page calls are checked, first.
  const appCheck =
    started.fromApp === undefined ? undefined : appTurnCheck(deps, chat.key, started.fromApp);
  const chatHook =
    chatCheck === undefined
      ? undefined
      : (request: ToolRequest) =>
          chatCheck({ ...request, name: turn.realName(request.name), chat: chat.key });
  const onToolRequest =
    appCheck === undefined
      ? chatHook
      : async (request: ToolRequest) => {
          const verdict = await appCheck(request);
          return verdict === true && chatHook !== undefined ? chatHook(request) : verdict;
        };
  const result = await runTurn({
    model: context.services.model,
    ...(chat.options.system === undefined ? {} : { system: chat.options.system }),
    messages,
    tools,
    maxSteps: chat.options.maxSteps,
    maxToolCalls: chat.options.maxToolCalls,
    permissions: chat.options.permissions,
    // The stored history is resent unchanged next turn: providers may cache it.
    stablePrefixLength: started.prefixLength,
    stallTimeoutMs: context.services.modelStallTimeoutMs,
    onModelRequest: () => context.services.metrics.modelRequest(context.services.model.provider),
    ...(onToolRequest === undefined ? {} : { onToolRequest }),
    signal: turn.abort.signal,
    events: (event) => turn.apply(event),
  });
  const status =
    result.status === "complete" ? "complete" : result.status === "stopped" ? "stopped" : "error";
  context.services.metrics.turn(status, result.failure);
  const error =
    result.status === "error"
      ? (result.failure?.message ??
        "The reply failed; try again, and if it keeps failing, check the server's log.")
      : undefined;
  // Cards whose call never ran (stopped while the model wrote its arguments, or arguments that
  // could not be read) would otherwise wait for a result forever.
  await turn.settleCalls(status === "stopped" ? STOPPED_REASON : (error ?? CALL_NOT_RUN_REASON));
  if (error !== undefined) {
    // A summary only: the request body holds the conversation and never goes to the log.
    context.logger.warn(
      {
        chat: chat.key,
        kind: result.failure?.kind,
        provider: result.failure?.provider,
        status: result.failure?.status,
        requestId: result.failure?.requestId,
      },
      `a turn failed: ${error}`,
    );
  }
  if (result.usage !== undefined) {
    context.logger.info({ chat: chat.key, usage: result.usage }, "model usage of a turn");
  }
  annotateSpan(
    turnSpanAttributes(result),
    result.status === "error" ? (result.failure?.kind ?? "error") : undefined,
  );
  try {
    // After the reply's progress saves: one still running would otherwise overwrite the end.
    const stored = await turn.saveEnd({
      parts: turn.storedParts(),
      status,
      ...(error === undefined ? {} : { error }),
      ...(result.status === "error" ? { retryable: result.failure?.retryable ?? true } : {}),
      ...(result.usage === undefined ? {} : { usage: result.usage }),
    });
    context.emit("message:updated", { message: messageToWire(stored) });
  } catch (storeError) {
    context.logger.error({ err: storeError }, "could not store the end of a reply");
    context.emit("notice", {
      level: "error",
      message: `The reply could not be saved: ${toWireError(storeError).message}`,
    });
  }
  context.emit("turn:state", {
    chatId: chat.key,
    conversationId: turn.conversationId,
    running: false,
  });
}
