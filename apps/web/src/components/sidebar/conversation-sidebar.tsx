import { useRef } from "react";
import {
  createConversation,
  type DownloadJson,
  downloadJson,
  importConversation,
} from "../../actions/conversation-actions";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { ConversationItem } from "./conversation-item";

/**
 * The left sidebar: New conversation, Import, the conversation list (most recent first), and
 * the error of the last list action with what to do next.
 */
export function ConversationSidebar(props: { download?: DownloadJson }) {
  const socket = useSocket();
  const conversations = useHostStore((state) => state.conversations);
  const currentId = useHostStore((state) => state.currentConversationId);
  const error = useHostStore((state) => state.conversationsError);
  const setError = useHostStore((state) => state.setConversationsError);
  const fileInput = useRef<HTMLInputElement>(null);
  const download = props.download ?? downloadJson;

  return (
    <nav className="sidebar" aria-label="Conversations" data-testid="sidebar">
      <div className="sidebar-actions">
        <button
          type="button"
          className="button button-primary sidebar-new"
          data-testid="new-conversation"
          onClick={() => void createConversation(socket)}
        >
          New conversation
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="import-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Reset, so picking the same file again fires `change` again.
            event.target.value = "";
            if (file !== undefined) void importConversation(socket, file);
          }}
        />
      </div>
      {error !== null ? (
        <div className="inline-error sidebar-error" role="alert" data-testid="sidebar-error">
          <span>{error}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss"
            onClick={() => setError(null)}
          >
            ×
          </button>
        </div>
      ) : null}
      <div className="sidebar-heading-row">
        <h2 className="sidebar-heading">Conversations</h2>
        <button
          type="button"
          className="button button-quiet button-small"
          data-testid="import-conversation"
          title="Import a conversation from a JSON file saved with Export"
          onClick={() => fileInput.current?.click()}
        >
          Import…
        </button>
      </div>
      {conversations.length === 0 ? (
        <p className="sidebar-empty">No saved conversations yet.</p>
      ) : (
        <ul className="conversation-list" data-testid="conversation-list">
          {conversations.map((conversation) => (
            <ConversationItem
              key={conversation.id}
              conversation={conversation}
              current={conversation.id === currentId}
              download={download}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}
