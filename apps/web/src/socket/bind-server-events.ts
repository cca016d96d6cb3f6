import type { ReplyChunk, ServerEvents } from "@mcp-chat-host/protocol";
import { useHostStore } from "../state/host-store";
import { messageText } from "../state/messages-slice";
import { serversHeard } from "../state/servers-heard";
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
 * One chunk of a reply being written, applied in the order the server sent it. A text delta is
 * placed by its offset first: text the tab has is skipped, and a delta past the end (some were
 * missed, e.g. while the server's link to other nodes was down) asks for a fresh snapshot instead.
 */
function chunkArrived(event: ServerEvents["message:chunk"]): void {
  const { chunk } = event;
  if (chunk.type === "text-delta") {
    const message = store().messagesByChat[event.chatId]?.byId[event.messageId];
    if (message === undefined || store().currentConversationId !== event.conversationId) return;
    const placed = placeDelta(messageText(message).length, chunk);
    if (placed.kind === "gap") wantFreshSnapshot();
    else if (placed.kind === "append") {
      store().replyChunkArrived({ ...event, chunk: { ...chunk, delta: placed.text } });
    }
    return;
  }
  const moved = store().replyChunkArrived(event);
  if (moved?.instanceId !== undefined) cardFactsArrived(moved.instanceId, chunk);
}

/**
 * What a tool part's chunk says of the part's card, told to the cards slice by the same actions
 * any reader of the server's stream uses: the input as the model writes it, then the call's
 * result, or why it has none.
 */
function cardFactsArrived(instanceId: string, chunk: ReplyChunk): void {
  switch (chunk.type) {
    case "tool-input-delta":
      store().cardInputChanged(instanceId, chunk.input, false);
      break;
    case "tool-input-available":
      store().cardInputChanged(instanceId, inputObject(chunk.input), true);
      break;
    case "tool-output-available":
      if (chunk.cardResult !== undefined) store().cardResulted(instanceId, chunk.cardResult);
      break;
    case "tool-output-error":
      // A tool's own error result is the card's result; a call that threw or was stopped has none.
      if (chunk.cardResult !== undefined) store().cardResulted(instanceId, chunk.cardResult);
      else store().cardCancelled(instanceId, chunk.errorText);
      break;
    case "tool-output-denied":
      store().cardCancelled(instanceId, chunk.reason);
      break;
    default:
      break;
  }
}

/** A call's complete input as a card's arguments (an input that is no object gives none). */
function inputObject(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/** The listeners that apply each server event to the store, each with one action. */
function serverListeners(): ServerListeners {
  return {
    "message:created": messageArrived,
    "message:chunk": chunkArrived,
    "message:updated": messageArrived,
    "card:opened": ({ card }) => store().cardOpened(card),
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
    "servers:state": ({ servers }) => serversHeard(servers),
    "elicitation:request": (request) => store().enqueueElicitation(request),
    "elicitation:settled": ({ elicitationId }) => store().settleElicitation(elicitationId),
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
