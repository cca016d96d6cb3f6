import type { ServerEvents } from "@mcp-chat-host/protocol";
import { useHostStore } from "../state/host-store";
import { messageText } from "../state/messages-slice";
import { writeConversationHash } from "../url/conversation-hash";
import { placeDelta, wantFreshSnapshot } from "./delta-order";
import type { HostSocket, HostSocketListeners } from "./host-socket";

type ServerListeners = { [E in keyof ServerEvents]: HostSocketListeners[E] };

const store = useHostStore.getState;

/** A stored message: the first one of a new conversation makes it the open one. */
function messageArrived({ message }: ServerEvents["message:created"]): void {
  const adopting = store().currentConversationId !== message.conversationId;
  if (store().messageArrived(message) && adopting) writeConversationHash(message.conversationId);
}

/**
 * More text of a reply, placed by its offset: text the tab has is skipped, and a delta past the
 * end (some were missed, e.g. while the server's link to other nodes was down) asks for a fresh
 * snapshot instead.
 */
function deltaArrived(event: ServerEvents["message:delta"]): void {
  const message = store().messagesByChat[event.chatId]?.byId[event.messageId];
  if (message === undefined || store().currentConversationId !== event.conversationId) return;
  const placed = placeDelta(messageText(message).length, event);
  if (placed.kind === "gap") wantFreshSnapshot();
  else if (placed.kind === "append") store().applyDelta({ ...event, delta: placed.text });
}

/** The listeners that apply each server event to the store, each with one action. */
function serverListeners(): ServerListeners {
  return {
    "message:created": messageArrived,
    // Not sent by this server yet: replies still arrive as the events below.
    "message:chunk": () => {},
    "message:delta": deltaArrived,
    "message:updated": messageArrived,
    "tool:started": (event) => store().toolStarted(event),
    "tool:progress": (event) => store().toolProgressed(event),
    "tool:finished": (event) => store().toolFinished(event),
    "tool:refused": (event) => store().toolRefused(event),
    "card:opened": ({ card }) => store().cardOpened(card),
    "card:result": ({ instanceId, result }) => store().cardResulted(instanceId, result),
    "card:cancelled": ({ instanceId, reason }) => store().cardCancelled(instanceId, reason),
    "card:withdrawn": ({ instanceId }) => store().cardWithdrawn(instanceId),
    "card:input-partial": ({ instanceId, arguments: args }) =>
      store().cardInputChanged(instanceId, args, false),
    "card:input": ({ instanceId, arguments: args }) =>
      store().cardInputChanged(instanceId, args, true),
    "card:closed": ({ instanceId, reason }) => store().cardClosedByServer(instanceId, reason),
    "composer:fill": ({ chatId, text, instanceId }) => {
      // The box names the app that wrote the text.
      const card = store().cards[instanceId]?.descriptor;
      store().offerAppMessage(chatId, text, {
        instanceId,
        title: card?.title ?? "An app",
        source: card?.source ?? "a source this page does not know",
      });
    },
    "chat:tools": ({ chatId, tools }) => store().setChatTools(chatId, tools),
    "turn:state": ({ chatId, conversationId, running }) => {
      const current = store().currentConversationId;
      if (current !== null && current !== conversationId) return;
      store().setRunning(chatId, running);
    },
    "context:built": ({ chatId, text, builtAt, injected }) =>
      store().recordContext({ chatId, text, builtAt, injected }),
    "approval:request": (request) => store().enqueueApproval(request),
    "approval:settled": ({ approvalId }) => store().settleApproval(approvalId),
    "conversations:changed": ({ conversations }) => store().setConversations(conversations),
    "session:stale": () => wantFreshSnapshot(),
    notice: ({ level, message }) => store().addNotice(level, message),
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
