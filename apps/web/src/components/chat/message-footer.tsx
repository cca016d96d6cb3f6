import type { ChatMessage } from "@mcp-chat-host/protocol";
import { useHostStore } from "../../state/host-store";
import { formatUsage } from "../../ui/format";
import { MessageStatusNote } from "./message-status-note";
import { RetryButton } from "./retry-button";

/** Statuses of a reply that Retry may run again. */
const retryStatuses: ReadonlySet<ChatMessage["status"]> = new Set([
  "error",
  "stopped",
  "interrupted",
]);

/** True when `message` is its chat's last message and the chat has no turn running. */
function useIsIdleLast(message: ChatMessage): boolean {
  return useHostStore((state) => {
    const chat = state.messagesByChat[message.chatId];
    if (chat === undefined || chat.order[chat.order.length - 1] !== message.id) return false;
    if (state.runningChats[message.chatId] === true) return false;
    return !chat.order.some((id) => chat.byId[id]?.status === "streaming");
  });
}

/**
 * Under a message: what happened to a reply that did not complete, a Retry button on the chat's
 * last reply when it failed, was stopped or was interrupted and the chat is idle, and the tokens
 * the reply used when the provider reported them.
 */
export function MessageFooter(props: { message: ChatMessage }) {
  const { message } = props;
  const idleLast = useIsIdleLast(message);
  const retryOffered =
    message.role === "assistant" && retryStatuses.has(message.status) && idleLast;
  const usage = message.role === "assistant" ? formatUsage(message.usage) : null;
  if (!retryStatuses.has(message.status) && usage === null) return null;
  return (
    <div className="message-footer" data-testid="message-footer">
      <MessageStatusNote message={message} retryOffered={retryOffered} />
      {retryOffered ? <RetryButton chatId={message.chatId} messageId={message.id} /> : null}
      {usage !== null ? (
        <p className="message-usage" data-testid="message-usage">
          <span className="visually-hidden">Tokens used: </span>
          {usage}
        </p>
      ) : null}
    </div>
  );
}
