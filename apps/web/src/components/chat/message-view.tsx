import type { ChatMessage } from "@mcp-chat-host/protocol";
import { useShallow } from "zustand/react/shallow";
import { useCardsStore } from "../../state/cards-store";
import { CardSlot } from "./card-slot";
import { MarkdownView } from "./markdown-view";
import { MessageStatusNote } from "./message-status-note";
import { ToolRowView } from "./tool-row-view";

/** The cards that say they belong under a message but are not among its parts (yet). */
function useExtraCardIds(message: ChatMessage): string[] {
  return useCardsStore(
    useShallow((state) =>
      Object.values(state.cards)
        .filter(
          (entry) =>
            entry.descriptor.messageId === message.id &&
            entry.descriptor.kind === "card" &&
            !message.parts.some(
              (part) => part.type === "card" && part.instanceId === entry.descriptor.instanceId,
            ),
        )
        .map((entry) => entry.descriptor.instanceId),
    ),
  );
}

/**
 * One message: the person's text as they typed it, or a reply as sanitised markdown with its tool
 * rows and cards where they happened, and a note when the reply did not complete.
 */
export function MessageView(props: { message: ChatMessage }) {
  const { message } = props;
  const extraCards = useExtraCardIds(message);
  const isAssistant = message.role === "assistant";
  const hasText = message.parts.some((part) => part.type === "text" && part.text !== "");
  // One keyed list for parts and late cards: a card that moves from one to the other keeps its
  // element (a remounted card would reload its view).
  const children = [
    ...message.parts.map((part, index) => {
      switch (part.type) {
        case "text":
          if (part.text === "") return null;
          return isAssistant ? (
            <MarkdownView key={`text-${index}`} text={part.text} />
          ) : (
            <p key={`text-${index}`} className="message-plain">
              {part.text}
            </p>
          );
        case "tool-call":
          return <ToolRowView key={`tool-${part.toolCallId}`} toolCallId={part.toolCallId} />;
        case "card":
          return (
            <CardSlot
              key={`card-${part.instanceId}`}
              instanceId={part.instanceId}
              chatId={message.chatId}
            />
          );
        default:
          // Tool results show in their call's row.
          return null;
      }
    }),
    ...extraCards.map((instanceId) => (
      <CardSlot key={`card-${instanceId}`} instanceId={instanceId} chatId={message.chatId} />
    )),
  ];
  return (
    <article
      className={`message message-${message.role}`}
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-message-id={message.id}
    >
      <h3 className="visually-hidden">{isAssistant ? "Reply" : "You said"}</h3>
      <div
        className="message-body"
        data-testid={isAssistant ? "message-assistant" : "message-user"}
        aria-busy={message.status === "streaming"}
      >
        {children}
        {isAssistant && message.status === "streaming" && !hasText ? (
          <p className="message-thinking" data-testid="message-thinking">
            <span className="spinner" aria-hidden="true" /> Thinking…
          </p>
        ) : null}
      </div>
      <MessageStatusNote message={message} />
    </article>
  );
}
