import type { ChatInfo } from "@mcp-chat-host/protocol";
import { useEffect, useId, useState } from "react";
import { inspectContext } from "../../actions/inspect-context";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { formatTime } from "../../ui/format";
import { HostDialog } from "../../ui/host-dialog";

/**
 * Shows, for one chat, exactly the text the model was given about the open apps at the last turn
 * (`host.context()`), when it was built and whether it was sent. Escape closes it.
 */
export function ContextInspector(props: { chat: ChatInfo; onClose: () => void }) {
  const { chat, onClose } = props;
  const socket = useSocket();
  const inspection = useHostStore((state) => state.contextByChat[chat.id]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  useEffect(() => {
    let current = true;
    void inspectContext(socket, chat.id).then((answer) => {
      if (!current) return;
      setLoading(false);
      setError(answer.ok ? null : answer.message);
    });
    return () => {
      current = false;
    };
  }, [socket, chat.id]);

  let body;
  if (inspection === undefined) {
    body = loading ? <p>Loading…</p> : null;
  } else {
    body = (
      <>
        <p className="context-meta" data-testid="context-meta">
          {inspection.builtAt === null
            ? "No turn has run in this chat yet."
            : `Built ${formatTime(inspection.builtAt)}. ${
                inspection.injected
                  ? "It was sent to the model."
                  : "It was not sent: this chat does not tell the model about its apps."
              }`}
        </p>
        {inspection.text === null ? (
          <p data-testid="context-empty">No app reported anything.</p>
        ) : (
          <pre className="context-text" data-testid="context-text">
            {inspection.text}
          </pre>
        )}
      </>
    );
  }

  return (
    <HostDialog
      className="modal context-inspector"
      labelledBy={titleId}
      testId="context-inspector"
      onEscape={onClose}
      onBackdropPress={onClose}
    >
      <header className="modal-header">
        <h2 id={titleId}>What the model was told about the apps ({chat.title})</h2>
        <button
          type="button"
          className="button button-quiet"
          onClick={onClose}
          data-testid="context-inspector-close"
        >
          Close
        </button>
      </header>
      {error !== null ? (
        <p className="inline-error" role="alert">
          Could not ask the server: {error}
        </p>
      ) : null}
      {body}
    </HostDialog>
  );
}
