import type { ConversationSummary } from "@mcp-chat-host/protocol";
import { limits } from "@mcp-chat-host/protocol";
import { useEffect, useRef, useState } from "react";
import {
  deleteConversation,
  type DownloadJson,
  exportConversation,
  openConversation,
  renameConversation,
} from "../../actions/conversation-actions";
import { useSocket } from "../../socket/socket-context";
import { DownloadIcon, PencilIcon, TrashIcon } from "../../ui/icons";

type Mode = "view" | "rename" | "confirm-delete";

/**
 * One conversation in the list: select to open it; Rename (inline: Enter saves, Escape cancels),
 * Export (a JSON file) and Delete (asks first).
 */
export function ConversationItem(props: {
  conversation: ConversationSummary;
  current: boolean;
  download: DownloadJson;
}) {
  const { conversation, current, download } = props;
  const socket = useSocket();
  const [mode, setMode] = useState<Mode>("view");
  const [title, setTitle] = useState(conversation.title);
  const [busy, setBusy] = useState(false);
  const renameInput = useRef<HTMLInputElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (mode === "rename") renameInput.current?.select();
  }, [mode]);

  const run = async (action: () => Promise<boolean>, onDone?: () => void) => {
    setBusy(true);
    const ok = await action();
    setBusy(false);
    if (ok) onDone?.();
  };
  const backToView = () => {
    setMode("view");
    // Give the keyboard focus back to the item, not to the page's top.
    queueMicrotask(() => openButton.current?.focus());
  };

  if (mode === "rename") {
    return (
      <li className="conversation-item conversation-item-editing" data-testid="conversation-item">
        <form
          className="conversation-rename"
          onSubmit={(event) => {
            event.preventDefault();
            void run(() => renameConversation(socket, conversation.id, title), backToView);
          }}
        >
          <label className="visually-hidden" htmlFor={`rename-${conversation.id}`}>
            New title for {conversation.title}
          </label>
          <input
            id={`rename-${conversation.id}`}
            ref={renameInput}
            data-testid="conversation-rename-input"
            value={title}
            maxLength={limits.maxTitleChars}
            disabled={busy}
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                event.preventDefault();
                setTitle(conversation.title);
                backToView();
              }
            }}
          />
          <button
            type="submit"
            className="button button-small"
            data-testid="conversation-rename-save"
            disabled={busy}
          >
            Save
          </button>
        </form>
      </li>
    );
  }

  if (mode === "confirm-delete") {
    return (
      <li className="conversation-item conversation-item-confirm" data-testid="conversation-item">
        <span className="conversation-confirm-text" role="alert">
          Delete “{conversation.title}”? This cannot be undone.
        </span>
        <span className="conversation-confirm-actions">
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="conversation-delete-confirm"
            disabled={busy}
            onClick={() => void run(() => deleteConversation(socket, conversation.id))}
          >
            Delete
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="conversation-delete-cancel"
            disabled={busy}
            onClick={backToView}
          >
            Keep
          </button>
        </span>
      </li>
    );
  }

  return (
    <li
      className={`conversation-item${current ? " conversation-item-current" : ""}`}
      data-testid="conversation-item"
      data-conversation-id={conversation.id}
    >
      <button
        ref={openButton}
        type="button"
        className="conversation-open"
        data-testid="conversation-open"
        aria-current={current ? "page" : undefined}
        onClick={() => {
          if (!current) void openConversation(socket, conversation.id);
        }}
      >
        <span className="conversation-title">{conversation.title}</span>
        {conversation.imported ? <span className="conversation-tag">imported</span> : null}
      </button>
      <span className="conversation-actions">
        <button
          type="button"
          className="icon-button"
          data-testid="conversation-rename"
          aria-label={`Rename ${conversation.title}`}
          title="Rename"
          onClick={() => {
            setTitle(conversation.title);
            setMode("rename");
          }}
        >
          <PencilIcon size={14} />
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="conversation-export"
          aria-label={`Export ${conversation.title}`}
          title="Export as JSON"
          disabled={busy}
          onClick={() =>
            void run(() =>
              exportConversation(socket, conversation.id, conversation.title, download),
            )
          }
        >
          <DownloadIcon size={14} />
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="conversation-delete"
          aria-label={`Delete ${conversation.title}`}
          title="Delete"
          onClick={() => setMode("confirm-delete")}
        >
          <TrashIcon size={14} />
        </button>
      </span>
    </li>
  );
}
