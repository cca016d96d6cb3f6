import type { ChatInfo } from "@mcp-chat-host/protocol";
import { useState } from "react";
import { useMessagesStore } from "../../state/messages-store";
import { ContextInspector } from "../context/context-inspector";
import { Composer } from "./composer";
import { MessageList } from "./message-list";

/**
 * One chat of the session: its title and context inspector button, its messages, its composer.
 * With several chats in the session, the page shows one column per chat.
 */
export function ChatColumn(props: {
  chat: ChatInfo;
  showTitle: boolean;
  ownsUnassignedCards: boolean;
}) {
  const { chat } = props;
  const [inspecting, setInspecting] = useState(false);
  const running = useMessagesStore((state) => {
    if (state.running[chat.id] === true) return true;
    const messages = state.chats[chat.id];
    return (
      messages !== undefined &&
      messages.order.some((id) => messages.byId[id]?.status === "streaming")
    );
  });
  return (
    <section
      className="chat-column"
      data-testid="chat-column"
      data-chat-id={chat.id}
      aria-label={chat.title}
    >
      <div className="chat-column-bar">
        {props.showTitle ? <h2 className="chat-column-title">{chat.title}</h2> : <span />}
        <button
          type="button"
          className="button button-quiet"
          data-testid="context-inspector-button"
          onClick={() => setInspecting(true)}
          aria-haspopup="dialog"
        >
          What the model sees
        </button>
      </div>
      <MessageList chatId={chat.id} ownsUnassignedCards={props.ownsUnassignedCards} />
      <div className="composer-dock">
        <Composer chatId={chat.id} chatTitle={chat.title} running={running} />
      </div>
      {inspecting ? <ContextInspector chat={chat} onClose={() => setInspecting(false)} /> : null}
    </section>
  );
}
