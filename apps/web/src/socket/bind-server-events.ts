import type { ServerEvents } from "@mcp-chat-host/protocol";
import { useApprovalsStore } from "../state/approvals-store";
import { cardOrigins, useCardsStore } from "../state/cards-store";
import { useComposerStore } from "../state/composer-store";
import { useContextStore } from "../state/context-store";
import { useConversationsStore } from "../state/conversations-store";
import { useMessagesStore } from "../state/messages-store";
import { useSessionStore } from "../state/session-store";
import { useToolsStore } from "../state/tools-store";
import { writeConversationHash } from "../url/conversation-hash";
import type { HostSocket, HostSocketListeners } from "./host-socket";

type ServerListeners = { [E in keyof ServerEvents]: HostSocketListeners[E] };

/** The id of a chat's last assistant message, where a refusal without a started row is shown. */
function lastAssistantMessageId(chatId: string): string | null {
  const chat = useMessagesStore.getState().chats[chatId];
  if (chat === undefined) return null;
  for (let index = chat.order.length - 1; index >= 0; index--) {
    const id = chat.order[index];
    if (id !== undefined && chat.byId[id]?.role === "assistant") return id;
  }
  return null;
}

/** When the first message of a new conversation arrives, that conversation becomes the open one. */
function adoptConversation(conversationId: string): void {
  const conversations = useConversationsStore.getState();
  if (conversations.currentId === conversationId) return;
  conversations.setCurrent(conversationId);
  writeConversationHash(conversationId);
}

/** The listeners that apply each server event to the stores. */
function serverListeners(): ServerListeners {
  return {
    "message:created": ({ message }) => {
      if (!useMessagesStore.getState().applyCreated(message)) return;
      adoptConversation(message.conversationId);
      useToolsStore.getState().mergeFromMessage(message);
    },
    "message:delta": (event) => useMessagesStore.getState().applyDelta(event),
    "message:updated": ({ message }) => {
      if (!useMessagesStore.getState().applyUpdated(message)) return;
      adoptConversation(message.conversationId);
      useToolsStore.getState().mergeFromMessage(message);
    },
    "tool:started": (event) => {
      if (useMessagesStore.getState().conversationId !== event.conversationId) return;
      useToolsStore.getState().started(event);
      useMessagesStore.getState().addPart(
        event.chatId,
        event.messageId,
        {
          type: "tool-call",
          toolCallId: event.toolCallId,
          name: event.name,
          arguments: event.arguments,
          ...(event.source === undefined ? {} : { source: event.source }),
          ...(event.modelName === undefined ? {} : { modelName: event.modelName }),
        },
        cardOrigins,
      );
    },
    "tool:progress": (event) => useToolsStore.getState().progressed(event),
    "tool:finished": (event) => useToolsStore.getState().finished(event),
    "tool:refused": (event) => {
      const known = useToolsStore.getState().rows[event.toolCallId];
      const messageId = known?.messageId ?? lastAssistantMessageId(event.chatId);
      useToolsStore.getState().refused(event, messageId);
      if (known === undefined && messageId !== null) {
        useMessagesStore.getState().addPart(event.chatId, messageId, {
          type: "tool-call",
          toolCallId: event.toolCallId,
          name: event.name,
          arguments: {},
        });
      }
    },
    "card:opened": ({ card }) => {
      if (card.kind === "pane") {
        useSessionStore.getState().addPane(card);
        useCardsStore.getState().opened(card);
        return;
      }
      const current = useMessagesStore.getState().conversationId;
      if (card.conversationId !== null && current !== null && card.conversationId !== current) {
        return;
      }
      useCardsStore.getState().opened(card);
      if (card.messageId !== undefined && card.chatId !== null) {
        useMessagesStore
          .getState()
          .addPart(
            card.chatId,
            card.messageId,
            { type: "card", instanceId: card.instanceId },
            cardOrigins,
          );
      }
    },
    "card:result": ({ instanceId, result }) =>
      useCardsStore.getState().resulted(instanceId, result),
    "card:cancelled": ({ instanceId, reason }) =>
      useCardsStore.getState().cancelled(instanceId, reason),
    // The card's own controller relays these to its view (cards/card-socket-events.ts).
    "card:input-partial": () => {},
    "card:input": () => {},
    "card:closed": ({ instanceId, reason }) =>
      useCardsStore.getState().closedByServer(instanceId, reason),
    "composer:fill": ({ chatId, text, instanceId }) => {
      // The box names the app that wrote the text (issue 9, item 3).
      const card = useCardsStore.getState().cards[instanceId]?.descriptor;
      useComposerStore.getState().offerAppMessage(chatId, text, {
        instanceId,
        title: card?.title ?? "An app",
        source: card?.source ?? "a source this page does not know",
      });
    },
    "chat:tools": ({ chatId, tools }) => useToolsStore.getState().setChatTools(chatId, tools),
    "turn:state": ({ chatId, conversationId, running }) => {
      const current = useMessagesStore.getState().conversationId;
      if (current !== null && current !== conversationId) return;
      useMessagesStore.getState().setRunning(chatId, running);
    },
    "context:built": ({ chatId, text, builtAt, injected }) =>
      useContextStore.getState().record({ chatId, text, builtAt, injected }),
    "approval:request": (request) => useApprovalsStore.getState().enqueue(request),
    "approval:settled": ({ approvalId }) => useApprovalsStore.getState().settle(approvalId),
    "conversations:changed": ({ conversations }) =>
      useConversationsStore.getState().setList(conversations),
    notice: ({ level, message }) => useSessionStore.getState().addNotice(level, message),
  };
}

/**
 * Applies every server event to the stores, for as long as the returned function is not called.
 *
 * @param socket - the page's socket.
 * @returns a function that removes the listeners.
 */
export function bindServerEvents(socket: HostSocket): () => void {
  const listeners = serverListeners();
  const names = Object.keys(listeners) as (keyof ServerListeners)[];
  for (const name of names) socket.on(name, listeners[name] as HostSocketListeners[typeof name]);
  return () => {
    for (const name of names) socket.off(name, listeners[name] as HostSocketListeners[typeof name]);
  };
}
