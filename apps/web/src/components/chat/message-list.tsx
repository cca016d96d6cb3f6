import { useEffect, useRef } from "react";
import { useShallow } from "zustand/react/shallow";
import { useCardsStore } from "../../state/cards-store";
import { useMessagesStore } from "../../state/messages-store";
import { CardSlot } from "./card-slot";
import { MessageView } from "./message-view";

/** How close to the bottom (px) counts as "reading the latest": new text then scrolls into view. */
const stickToBottomPx = 80;

/**
 * A chat's messages, oldest first, followed by the chat's cards that belong to no message. It is
 * a live region: a screen reader reads a reply once it is complete (busy while it streams).
 */
export function MessageList(props: { chatId: string; ownsUnassignedCards: boolean }) {
  const { chatId, ownsUnassignedCards } = props;
  const messages = useMessagesStore(
    useShallow((state) => {
      const chat = state.chats[chatId];
      return chat === undefined ? [] : chat.order.flatMap((id) => chat.byId[id] ?? []);
    }),
  );
  const looseCards = useCardsStore(
    useShallow((state) =>
      Object.values(state.cards)
        .filter(
          (entry) =>
            entry.descriptor.kind === "card" &&
            entry.descriptor.messageId === undefined &&
            (entry.descriptor.chatId === chatId ||
              (entry.descriptor.chatId === null && ownsUnassignedCards)),
        )
        .map((entry) => entry.descriptor.instanceId),
    ),
  );
  const streaming = messages.some((message) => message.status === "streaming");
  const container = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);

  useEffect(() => {
    const element = container.current;
    // Follow new content only when the person is already at the bottom: never yank them away
    // from what they scrolled up to read. (jsdom has no scrollTo.)
    if (element !== null && nearBottom.current && typeof element.scrollTo === "function") {
      element.scrollTo({ top: element.scrollHeight });
    }
  });

  return (
    <div
      ref={container}
      className="message-list"
      role="log"
      aria-live="polite"
      aria-busy={streaming}
      aria-label="Messages"
      data-testid="message-list"
      onScroll={(event) => {
        const element = event.currentTarget;
        nearBottom.current =
          element.scrollHeight - element.scrollTop - element.clientHeight < stickToBottomPx;
      }}
    >
      <div className="message-column">
        {messages.length === 0 && looseCards.length === 0 ? (
          <p className="empty-chat" data-testid="empty-chat">
            Ask something, or ask for an app. Replies and app cards show here.
          </p>
        ) : null}
        {messages.map((message) => (
          <MessageView key={message.id} message={message} />
        ))}
        {looseCards.map((instanceId) => (
          <CardSlot key={instanceId} instanceId={instanceId} chatId={chatId} />
        ))}
      </div>
    </div>
  );
}
