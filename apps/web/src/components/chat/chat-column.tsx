import type { ChatInfo } from "@mcp-chat-host/protocol";
import { useRef, useState } from "react";
import { useHostStore } from "../../state/host-store";
import { AuditPanel } from "../audit/audit-panel";
import { ContextInspector } from "../context/context-inspector";
import { SignInBar } from "../servers/sign-in-bar";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { ToolNamesNotice } from "./tool-names-notice";
import { useDockHeight } from "./use-dock-height";

/**
 * One chat of the session: its title, its audit and context inspector buttons, a note when its
 * tools have other names for the model, the servers to sign in to (in one column), its messages, its composer (always drawn above cards).
 * With several chats in the session, the page shows one column per chat.
 */
export function ChatColumn(props: {
  chat: ChatInfo;
  showTitle: boolean;
  ownsUnassignedCards: boolean;
  /** Whether this column shows the bar of servers to sign in to (one column of the page does). */
  showsSignIns: boolean;
}) {
  const { chat } = props;
  const [inspecting, setInspecting] = useState(false);
  const [auditing, setAuditing] = useState(false);
  const conversationId = useHostStore((state) => state.currentConversationId);
  const column = useRef<HTMLElement>(null);
  const dock = useRef<HTMLDivElement>(null);
  useDockHeight(column, dock);
  const running = useHostStore((state) => {
    if (state.runningChats[chat.id] === true) return true;
    const messages = state.messagesByChat[chat.id];
    return (
      messages !== undefined &&
      messages.order.some((id) => messages.byId[id]?.status === "streaming")
    );
  });
  return (
    <section
      ref={column}
      className="chat-column"
      data-testid="chat-column"
      data-chat-id={chat.id}
      aria-label={chat.title}
    >
      <div className="chat-column-bar">
        {props.showTitle ? <h2 className="chat-column-title">{chat.title}</h2> : <span />}
        <span className="chat-column-actions">
          <button
            type="button"
            className="button button-quiet"
            data-testid="audit-panel-button"
            onClick={() => setAuditing(true)}
            aria-haspopup="dialog"
          >
            What the apps did
          </button>
          <button
            type="button"
            className="button button-quiet"
            data-testid="context-inspector-button"
            onClick={() => setInspecting(true)}
            aria-haspopup="dialog"
          >
            What the model sees
          </button>
        </span>
      </div>
      <ToolNamesNotice chatId={chat.id} />
      {props.showsSignIns ? <SignInBar /> : null}
      <MessageList chatId={chat.id} ownsUnassignedCards={props.ownsUnassignedCards} />
      <div className="composer-dock" ref={dock}>
        <Composer chatId={chat.id} chatTitle={chat.title} running={running} />
      </div>
      {inspecting ? <ContextInspector chat={chat} onClose={() => setInspecting(false)} /> : null}
      {auditing ? (
        <AuditPanel conversationId={conversationId} onClose={() => setAuditing(false)} />
      ) : null}
    </section>
  );
}
