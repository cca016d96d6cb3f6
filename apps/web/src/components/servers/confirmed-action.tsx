import { useState } from "react";
import type { HostSocket } from "../../socket/host-socket";
import { useSocket } from "../../socket/socket-context";

/** The words of one action a server row asks about first (Disconnect, Remove). */
export interface ConfirmedActionWords {
  /** The test ids' stem: `server-<id>`, `-question`, `-confirm`, `-keep`. */
  id: string;
  /** The button's text ("Disconnect"). */
  label: string;
  /** The question asked first. */
  question: string;
  /** The confirming button's text ("Yes, disconnect"). */
  confirm: string;
  /** The button that changes nothing ("Keep connected"), and its accessible name. */
  keep: string;
  keepName: string;
}

/**
 * A server row's action that asks first: the button, then the question with a confirming button
 * (which acts once, and is off while the action runs) and one that keeps things as they are.
 */
export function ConfirmedAction(props: {
  name: string;
  words: ConfirmedActionWords;
  act: (socket: HostSocket, name: string) => Promise<unknown>;
}) {
  const { name, words, act } = props;
  const socket = useSocket();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-small"
        data-testid={`server-${words.id}`}
        aria-label={`${words.label} ${name}`}
        onClick={() => setAsking(true)}
      >
        {words.label}
      </button>
    );
  }
  return (
    <span className="server-confirm" role="group" aria-label={`${words.label} ${name}?`}>
      <span data-testid={`server-${words.id}-question`}>{words.question}</span>
      <button
        type="button"
        className="button button-danger button-small"
        data-testid={`server-${words.id}-confirm`}
        aria-label={`${words.confirm} ${name}`}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void act(socket, name).finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {words.confirm}
      </button>
      <button
        type="button"
        className="button button-small"
        data-testid={`server-${words.id}-keep`}
        aria-label={words.keepName}
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        {words.keep}
      </button>
    </span>
  );
}
