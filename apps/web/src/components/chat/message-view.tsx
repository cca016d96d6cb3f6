import type { ChatMessage, MessagePart } from "@mcp-chat-host/protocol";
import { useShallow } from "zustand/react/shallow";
import { cardOriginsOf } from "../../state/cards-slice";
import { useHostStore } from "../../state/host-store";
import { placePart } from "../../state/part-placement";
import { CardSlot } from "./card-slot";
import { MarkdownView } from "./markdown-view";
import { MessageFooter } from "./message-footer";
import { type StablePart, StablePartList } from "./stable-part-list";
import { ThinkingLine } from "./thinking-line";
import { ToolRowView } from "./tool-row-view";

/** The cards that say they belong under a message but are not among its parts (yet). */
function useExtraCardIds(message: ChatMessage): string[] {
  return useHostStore(
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

/** The parts to show: the message's, with its late cards where the server will put them. */
function shownParts(message: ChatMessage, extraCards: readonly string[]): MessagePart[] {
  return extraCards.reduce<MessagePart[]>(
    (parts, instanceId) =>
      placePart(parts, { type: "card", instanceId }, cardOriginsOf(useHostStore.getState())),
    message.parts,
  );
}

/**
 * One message: the person's text as they typed it, or a reply as sanitised markdown with its tool
 * rows and cards where they happened, a "Thinking…" line while it has no text, and its footer
 * (what happened when it did not complete, Retry, tokens used).
 *
 * Cards are pinned parts of a {@link StablePartList}: a card's element (and its iframe) is made
 * once and never moved, whatever the updates do to the parts around it.
 */
export function MessageView(props: { message: ChatMessage }) {
  const { message } = props;
  const extraCards = useExtraCardIds(message);
  const isAssistant = message.role === "assistant";
  const hasText = message.parts.some((part) => part.type === "text" && part.text !== "");
  const parts: StablePart[] = [];
  let textCount = 0;
  for (const part of shownParts(message, extraCards)) {
    switch (part.type) {
      case "text": {
        // Texts are keyed by their rank among texts: a call or a card put before them does not
        // make them new elements.
        const key = `text-${textCount++}`;
        if (part.text === "") break;
        parts.push({
          key,
          pinned: false,
          node: isAssistant ? (
            <MarkdownView text={part.text} />
          ) : (
            <p className="message-plain">{part.text}</p>
          ),
        });
        break;
      }
      case "tool-call":
        parts.push({
          key: `tool-${part.toolCallId}`,
          pinned: false,
          node: <ToolRowView message={message} toolCallId={part.toolCallId} />,
        });
        break;
      case "card":
        parts.push({
          key: `card-${part.instanceId}`,
          pinned: true,
          node: <CardSlot instanceId={part.instanceId} chatId={message.chatId} />,
        });
        break;
      default:
        // Tool results show in their call's row.
        break;
    }
  }
  return (
    <article
      className={`message message-${message.role}`}
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-message-id={message.id}
    >
      <h3 className="visually-hidden">{isAssistant ? "Reply" : "You said"}</h3>
      {message.fromApp !== undefined ? (
        // An app's message sent as the person's says which app wrote it, so nobody mistakes it.
        <p className="message-from-app" data-testid="message-from-app">
          Written by the app <strong>{message.fromApp.title}</strong> ({message.fromApp.source}) and
          sent as yours
        </p>
      ) : null}
      <div
        className="message-body"
        data-testid={isAssistant ? "message-assistant" : "message-user"}
        aria-busy={message.status === "streaming"}
      >
        <StablePartList parts={parts} />
        {isAssistant && message.status === "streaming" && !hasText ? (
          <ThinkingLine since={message.createdAt} />
        ) : null}
      </div>
      <MessageFooter message={message} />
    </article>
  );
}
