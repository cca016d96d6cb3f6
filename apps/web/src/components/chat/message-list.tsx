import { useRef } from "react";
import { useShallow } from "zustand/react/shallow";
import { useHostStore } from "../../state/host-store";
import { CardSlot } from "./card-slot";
import { EarlierMessages } from "./earlier-messages";
import { MessageView } from "./message-view";
import { tailOf, useFollowBottom } from "./use-follow-bottom";
import { useKeepPlace } from "./use-keep-place";

/**
 * A chat's messages, oldest first, followed by the chat's cards that belong to no message. It is
 * a live region: a screen reader reads a reply once it is complete (busy while it streams).
 *
 * A long conversation opens with its latest messages; scrolling near the top loads the earlier
 * ones a page at a time ({@link EarlierMessages}), and what the person looks at stays in place.
 */
export function MessageList(props: { chatId: string; ownsUnassignedCards: boolean }) {
  const { chatId, ownsUnassignedCards } = props;
  const messages = useHostStore(
    useShallow((state) => {
      const chat = state.messagesByChat[chatId];
      return chat === undefined ? [] : chat.order.flatMap((id) => chat.byId[id] ?? []);
    }),
  );
  const looseCards = useHostStore(
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
  const earlier = useHostStore((state) => state.earlierMessages.more);
  const streaming = messages.some((message) => message.status === "streaming");
  const container = useRef<HTMLDivElement>(null);
  // Before following the end: a page put above keeps the view, unless the end is followed.
  const measurePlace = useKeepPlace(container, messages[0]?.id);
  // At the end on opening; then following new content and the last item's growth only while the
  // person reads the latest.
  const followScroll = useFollowBottom(
    container,
    `${messages[0]?.conversationId ?? ""}:${chatId}`,
    tailOf(messages.length, messages.at(-1), looseCards.length),
  );

  return (
    <div
      ref={container}
      className="message-list"
      role="log"
      aria-live="polite"
      aria-busy={streaming}
      aria-label="Messages"
      data-testid="message-list"
      data-scroll-root=""
      onScroll={(event) => {
        measurePlace();
        followScroll(event);
      }}
    >
      <div className="message-column">
        {earlier ? <EarlierMessages root={container} /> : null}
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
