import type { ClientEventName, ClientEventValues, ClientPayload } from "@mcp-chat-host/protocol";
import { clientEventSchemas } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { z } from "zod";
import { conversationAudit } from "../audit/conversation-audit";
import { toWireError } from "../errors/to-wire-error";
import { HostError } from "../host-error";
import { answerValidated, type ValidatedHandlerOptions } from "../server/validated-handler";
import type { HostSession } from "../host-session";
import { chatAppContext } from "../chat/chat-app-context";

interface ListeningSocket {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** What one browser event does in the tab's session; its value is the acknowledgement's. */
type SessionHandler<E extends ClientEventName> = (
  payload: ClientPayload<E>,
  session: HostSession,
) => ClientEventValues[E] | Promise<ClientEventValues[E]>;

/**
 * Every browser event of the wire contract and what it does (the type makes a missing one an
 * error). One table for the process: a socket adds only a small listener per event, which keeps
 * an idle session's memory down.
 */
const sessionHandlers: { [E in ClientEventName]: SessionHandler<E> } = {
  "session:hello": async (payload, session) => {
    const snapshot = await session.conversations.hello(payload.conversationId);
    // A tab that was away when an app asked the person gets the pending questions again, after
    // the snapshot (socket.io keeps order; the browser ignores ones it already shows).
    // Likewise each reply being written, as it stands then: deltas sent between building the
    // snapshot and its acknowledgement are in it, and later deltas follow it.
    setImmediate(() => {
      const { context } = session;
      for (const message of session.turnService.liveReplies()) {
        if (message.conversationId === session.conversations.shown()?.id) {
          context.emit("message:updated", { message });
        }
      }
      for (const request of context.broker.pending()) context.emit("approval:request", request);
      for (const request of context.elicitations.pending()) {
        context.emit("elicitation:request", request);
      }
      for (const tools of session.tools.events()) context.emit("chat:tools", tools);
    });
    return snapshot;
  },
  "conversation:list": (_payload, session) => session.conversations.list(),
  "conversation:create": (payload, session) => session.conversations.create(payload.title),
  "conversation:open": (payload, session) => session.conversations.open(payload.conversationId),
  "conversation:messages": (payload, session) =>
    session.conversations.messages(payload.conversationId, payload.before, payload.limit),
  "conversation:rename": (payload, session) =>
    session.conversations.rename(payload.conversationId, payload.title),
  "conversation:delete": async (payload, session) => {
    await session.conversations.delete(payload.conversationId);
    return { deleted: true as const };
  },
  "conversation:export": (payload, session) => session.conversations.export(payload.conversationId),
  "conversation:import": (payload, session) => session.conversations.import(payload.document),
  "message:send": (payload, session) =>
    session.turnService.send(payload.chatId, payload.text, {
      clientId: payload.clientId,
      ...(payload.attachments === undefined ? {} : { attachments: payload.attachments }),
    }),
  "turn:stop": (payload, session) => ({ stopped: session.turnService.stop(payload.chatId) }),
  "turn:retry": (payload, session) => session.turnService.retry(payload.chatId, payload.messageId),
  "card:attach": (payload, session) =>
    session.attach.attach(payload.instanceId, payload.permissions, payload.views),
  "card:call-tool": (payload, session) =>
    session.pageCalls.callTool(payload.instanceId, payload.name, payload.arguments ?? {}),
  "card:read-resource": (payload, session) =>
    session.pageCalls.resourceRequest(payload.instanceId, { kind: "read", uri: payload.uri }),
  "card:list-resources": (payload, session) =>
    session.pageCalls.resourceRequest(payload.instanceId, {
      kind: "list",
      ...(payload.cursor === undefined ? {} : { cursor: payload.cursor }),
    }),
  "card:list-resource-templates": (payload, session) =>
    session.pageCalls.resourceRequest(payload.instanceId, {
      kind: "templates",
      ...(payload.cursor === undefined ? {} : { cursor: payload.cursor }),
    }),
  "card:update-context": (payload, session) =>
    session.cardService.updateContext(
      payload.instanceId,
      {
        ...(payload.content === undefined ? {} : { content: payload.content }),
        ...(payload.structuredContent === undefined
          ? {}
          : { structuredContent: payload.structuredContent }),
      } as never,
      payload.generation,
    ),
  "card:post-message": (payload, session) =>
    session.appMessages.postMessage(
      payload.instanceId,
      { content: payload.content } as never,
      payload.generation,
    ),
  "card:log": (payload, session) => {
    session.cardService.log(payload.instanceId, payload);
    return {};
  },
  "card:teardown": async (payload, session) => {
    await session.cardService.teardown(payload.instanceId, payload.reason);
    return {};
  },
  "approval:answer": async (payload, session) => {
    await session.context.broker.answer(payload.approvalId, {
      decision: payload.decision,
      ...(payload.reason === undefined ? {} : { reason: payload.reason }),
    });
    return {};
  },
  "servers:list": (_payload, session) => session.servers.list(),
  "server:connect": (payload, session) => session.servers.connect(payload.name),
  "server:disconnect": (payload, session) => session.servers.disconnect(payload.name),
  "connectors:policy": (_payload, session) => session.servers.connectors.policy(),
  "connector:add": (payload, session) => session.servers.addConnector(payload.url),
  "connector:remove": (payload, session) => session.servers.removeConnector(payload.name),
  "elicitation:answer": (payload, session) => {
    session.context.elicitations.answer(payload.elicitationId, payload);
    return {};
  },
  "prompts:list": (payload, session) => session.composer.prompts(payload.chatId),
  "prompt:get": (payload, session) =>
    session.composer.promptText(payload.chatId, payload.source, payload.name, payload.arguments),
  "resources:list": (payload, session) => session.composer.resources(payload.chatId),
  // The audit of one of the person's conversations: which app called what, the verdict, who
  // answered.
  "audit:list": (payload, session) =>
    conversationAudit(
      session.context.services.store,
      session.user.id,
      payload.conversationId,
      payload.limit,
    ),
  "context:inspect": (payload, session) => {
    const { chats, lastContext, cards } = session.context;
    const chat = chats.get(payload.chatId);
    if (!chat) {
      throw new HostError("not_found", `This session has no chat "${payload.chatId}".`);
    }
    const last = lastContext.get(payload.chatId);
    return {
      chatId: payload.chatId,
      text: last ? last.text : chatAppContext(cards, [...chats.keys()], payload.chatId),
      builtAt: last?.builtAt ?? null,
      injected: last?.injected ?? chat.host?.context ?? true,
    };
  },
};

const eventNames = Object.keys(sessionHandlers) as ClientEventName[];

/** One socket's part of every listener: its session, logger and size cap. */
interface SocketBinding {
  sessionReady: Promise<HostSession>;
  options: ValidatedHandlerOptions;
}

/** Answers one event of a socket: validated with its schema, then run in the session. */
function answerEvent<E extends ClientEventName>(
  event: E,
  binding: SocketBinding,
  args: readonly unknown[],
): void {
  const schema = clientEventSchemas[event] as unknown as z.ZodType<ClientPayload<E>>;
  const handler = sessionHandlers[event] as SessionHandler<E>;
  answerValidated(
    schema,
    async (payload: ClientPayload<E>) => handler(payload, await binding.sessionReady),
    binding.options,
    args,
    event,
  );
}

/**
 * Binds every browser event of the wire contract to the tab's session. Each payload is validated
 * against its schema first (a payload over `options.maxBytes` of JSON is answered `too_large`);
 * each handler answers its acknowledgement exactly once, a failure mapped by {@link toWireError}.
 * Handlers are bound before the session exists (its setup is async), so that nothing the tab
 * sends right after connecting is lost; each waits for the session.
 */
export function bindSessionEvents(
  socket: ListeningSocket,
  sessionReady: Promise<HostSession>,
  logger: Logger,
  options: { maxBytes?: number } = {},
): void {
  const binding: SocketBinding = {
    sessionReady,
    options: { logger, maxBytes: options.maxBytes, toWireError },
  };
  for (const event of eventNames) {
    socket.on(event, (...args: unknown[]) => {
      answerEvent(event, binding, args);
    });
  }
}
