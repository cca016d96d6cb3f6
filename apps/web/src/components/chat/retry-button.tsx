import { useState } from "react";
import { retryTurn } from "../../actions/retry-turn";
import { useSocket } from "../../socket/socket-context";

/**
 * Runs a chat's last turn again (`turn:retry`), for a reply that failed, was stopped or was
 * interrupted. It is disabled while the request is out; a refusal shows as a notice.
 */
export function RetryButton(props: { chatId: string; messageId: string }) {
  const socket = useSocket();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      data-testid="retry-button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void retryTurn(socket, props.chatId, props.messageId).then(() => setPending(false));
      }}
    >
      {pending ? "Retrying…" : "Retry"}
    </button>
  );
}
