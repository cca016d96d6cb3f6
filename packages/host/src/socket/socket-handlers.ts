import type { ClientEventName, ClientEventValues, ClientPayload } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import { conversationAudit } from "../audit/conversation-audit";
import { toWireError } from "../errors/to-wire-error";
import { HostError } from "../host-error";
import { handleClientEvent } from "../server/validated-handler";
import type { HostSession } from "../session/host-session";

interface ListeningSocket {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Binds every browser event of the wire contract to the tab's session. Each payload is validated
 * against its schema first (a payload over `options.maxBytes` of JSON is answered `too_large`);
 * each handler answers its acknowledgement exactly once, a failure mapped by {@link toWireError}.
 */
export function bindSessionEvents(
  socket: ListeningSocket,
  sessionReady: Promise<HostSession>,
  logger: Logger,
  options: { maxBytes?: number } = {},
): void {
  // Handlers are bound before the session exists (its setup is async), so that nothing the tab
  // sends right after connecting is lost; each waits for the session.
  const on = <E extends ClientEventName>(
    event: E,
    handler: (
      payload: ClientPayload<E>,
      session: HostSession,
    ) => ClientEventValues[E] | Promise<ClientEventValues[E]>,
  ) =>
    handleClientEvent(socket, event, async (payload) => handler(payload, await sessionReady), {
      logger,
      maxBytes: options.maxBytes,
      toWireError,
    });
  on("session:hello", async (payload, session) => {
    const snapshot = await session.hello(payload.conversationId);
    // A tab that was away when an app asked the person gets the pending questions again, after
    // the snapshot (socket.io keeps order; the browser ignores ones it already shows).
    // Likewise each reply being written, as it stands then: deltas sent between building the
    // snapshot and its acknowledgement are in it, and later deltas follow it.
    setImmediate(() => {
      for (const message of session.turnService.liveReplies()) {
        if (message.conversationId === session.conversation?.id) {
          session.emit("message:updated", { message });
        }
      }
      for (const request of session.broker.pending()) session.emit("approval:request", request);
      for (const tools of session.turnService.chatTools()) session.emit("chat:tools", tools);
    });
    return snapshot;
  });
  on("conversation:list", (_payload, session) => session.listConversations());
  on("conversation:create", (payload, session) => session.createConversation(payload.title));
  on("conversation:open", (payload, session) => session.openConversation(payload.conversationId));
  on("conversation:rename", (payload, session) =>
    session.renameConversation(payload.conversationId, payload.title),
  );
  on("conversation:delete", async (payload, session) => {
    await session.deleteConversation(payload.conversationId);
    return { deleted: true as const };
  });
  on("conversation:export", (payload, session) =>
    session.exportConversation(payload.conversationId),
  );
  on("conversation:import", (payload, session) => session.importConversation(payload.document));
  on("message:send", (payload, session) =>
    session.turnService.send(payload.chatId, payload.text, { clientId: payload.clientId }),
  );
  on("turn:stop", (payload, session) => ({ stopped: session.turnService.stop(payload.chatId) }));
  on("turn:retry", (payload, session) =>
    session.turnService.retry(payload.chatId, payload.messageId),
  );
  on("card:attach", (payload, session) =>
    session.cardService.attach(payload.instanceId, payload.permissions),
  );
  on("card:call-tool", (payload, session) =>
    session.cardService.callTool(payload.instanceId, payload.name, payload.arguments ?? {}),
  );
  on("card:read-resource", (payload, session) =>
    session.cardService.resourceRequest(payload.instanceId, { kind: "read", uri: payload.uri }),
  );
  on("card:list-resources", (payload, session) =>
    session.cardService.resourceRequest(payload.instanceId, {
      kind: "list",
      ...(payload.cursor === undefined ? {} : { cursor: payload.cursor }),
    }),
  );
  on("card:list-resource-templates", (payload, session) =>
    session.cardService.resourceRequest(payload.instanceId, {
      kind: "templates",
      ...(payload.cursor === undefined ? {} : { cursor: payload.cursor }),
    }),
  );
  on("card:update-context", (payload, session) =>
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
  );
  on("card:post-message", (payload, session) =>
    session.cardService.postMessage(
      payload.instanceId,
      { content: payload.content } as never,
      payload.generation,
    ),
  );
  on("card:log", (payload, session) => {
    session.logger.debug(
      {
        card: payload.instanceId,
        level: payload.level,
        logger: payload.logger,
        data: payload.data,
      },
      "card log",
    );
    return {};
  });
  on("card:teardown", async (payload, session) => {
    await session.cardService.teardown(payload.instanceId, payload.reason);
    return {};
  });
  on("approval:answer", async (payload, session) => {
    await session.broker.answer(payload.approvalId, {
      decision: payload.decision,
      ...(payload.reason === undefined ? {} : { reason: payload.reason }),
    });
    return {};
  });
  // The audit of one of the person's conversations (issue 9, item 16).
  on("audit:list", (payload, session) =>
    conversationAudit(
      session.services.store,
      session.user.id,
      payload.conversationId,
      payload.limit,
    ),
  );
  on("context:inspect", (payload, session) => {
    if (!session.chats.has(payload.chatId)) {
      throw new HostError("not_found", `This session has no chat "${payload.chatId}".`);
    }
    const last = session.lastContext.get(payload.chatId);
    const chat = session.chats.get(payload.chatId);
    return {
      chatId: payload.chatId,
      text: last ? last.text : session.contextFor(payload.chatId),
      builtAt: last?.builtAt ?? null,
      injected: last?.injected ?? chat?.host?.context ?? true,
    };
  });
}
