import type { ChatMessage } from "@mcp-chat-host/protocol";
import { resourceLabel } from "./attachment-chips";
import { CardSlot } from "./card-slot";
import { MarkdownView } from "./markdown-view";
import { MessageFooter } from "./message-footer";
import { type StablePart, StablePartList } from "./stable-part-list";
import { ThinkingLine } from "./thinking-line";
import { ToolRowView } from "./tool-row-view";

/** A card's place among a message's parts: pinned, so its element never moves. */
function cardPart(instanceId: string, chatId: string): StablePart {
  return {
    key: `card-${instanceId}`,
    pinned: true,
    node: <CardSlot instanceId={instanceId} chatId={chatId} />,
  };
}

/**
 * One message: the person's text as they typed it (with the resources they attached, named), or
 * a reply as sanitised markdown with its tool
 * rows and cards where they happened (a card a call opened right after the call's row), a
 * "Thinking…" line while it has no text, and its footer (what happened when it did not complete,
 * Retry, tokens used).
 *
 * Cards are pinned parts of a {@link StablePartList}: a card's element (and its iframe) is made
 * once and never moved, whatever the updates do to the parts around it.
 */
export function MessageView(props: { message: ChatMessage }) {
  const { message } = props;
  const isAssistant = message.role === "assistant";
  const hasText = message.parts.some((part) => part.type === "text" && part.text !== "");
  const parts: StablePart[] = [];
  let textCount = 0;
  let resourceCount = 0;
  for (const part of message.parts) {
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
      case "tool":
        parts.push({
          key: `tool-${part.toolCallId}`,
          pinned: false,
          node: <ToolRowView message={message} part={part} />,
        });
        // The card a call opened is the call's child: it shows right after the call's row.
        if (part.instanceId !== undefined) parts.push(cardPart(part.instanceId, message.chatId));
        break;
      case "card":
        parts.push(cardPart(part.instanceId, message.chatId));
        break;
      case "resource":
        // A resource the person attached: named, not shown (the model read its contents).
        parts.push({
          key: `resource-${resourceCount++}`,
          pinned: false,
          node: (
            <p className="message-attachment" data-testid="message-attachment" title={part.uri}>
              Attached: <span className="message-attachment-name">{resourceLabel(part)}</span>{" "}
              <span className="prompt-option-source">({part.source})</span>
            </p>
          ),
        });
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
