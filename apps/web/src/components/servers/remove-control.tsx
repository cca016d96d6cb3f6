import { useState } from "react";
import { removeConnector } from "../../actions/connectors";
import { useSocket } from "../../socket/socket-context";

/** The question Remove asks first. */
export function removeQuestion(name: string): string {
  return `Remove ${name}? Your sign-in to it is revoked and its tools leave your chats.`;
}

/** Remove, asked first, for a server the person added themselves. */
export function RemoveControl(props: { name: string }) {
  const { name } = props;
  const socket = useSocket();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-small"
        data-testid="server-remove"
        aria-label={`Remove ${name}`}
        onClick={() => setAsking(true)}
      >
        Remove
      </button>
    );
  }
  return (
    <span className="server-confirm" role="group" aria-label={`Remove ${name}?`}>
      <span data-testid="server-remove-question">{removeQuestion(name)}</span>
      <button
        type="button"
        className="button button-danger button-small"
        data-testid="server-remove-confirm"
        aria-label={`Yes, remove ${name}`}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void removeConnector(socket, name).finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        Yes, remove
      </button>
      <button
        type="button"
        className="button button-small"
        data-testid="server-remove-keep"
        aria-label={`Keep ${name}`}
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        Keep
      </button>
    </span>
  );
}
