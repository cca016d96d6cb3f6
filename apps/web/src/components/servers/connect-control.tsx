import { useCallback } from "react";
import {
  cancelServerSignIn,
  signInLinkOpened,
  startServerSignIn,
} from "../../actions/server-sign-in";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";

/**
 * The click handler that starts a server's sign-in. It opens the popup in the click itself (the
 * browser's user activation), so it must be called from the handler, not after an await.
 */
function useStartSignIn(): (name: string) => void {
  const socket = useSocket();
  return useCallback((name: string) => void startServerSignIn(socket, name), [socket]);
}

/**
 * "Connect" for a server, or while this tab signs in to it: "Cancel" (it closes the window), and
 * the link to the sign-in page when the browser blocked the window.
 *
 * @param props.name - the server's name.
 * @param props.label - the Connect button's text ("Connect", or "Connect <server>" outside the
 *   panel); its accessible name always names the server.
 */
export function ConnectControl(props: { name: string; label: string }) {
  const { name } = props;
  const signIn = useHostStore((state) => state.serverSignIns[name]);
  const start = useStartSignIn();
  if (signIn === undefined) {
    return (
      <button
        type="button"
        className="button button-primary button-small"
        data-testid="server-connect"
        aria-label={`Connect ${name}`}
        onClick={() => start(name)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span className="connect-control">
      {signIn.step === "link" ? (
        <a
          className="button button-primary button-small"
          data-testid="server-sign-in-link"
          href={signIn.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open the sign-in page of ${name}`}
          onClick={() => signInLinkOpened(name)}
        >
          Open the sign-in page
        </a>
      ) : null}
      <button
        type="button"
        className="button button-small"
        data-testid="server-sign-in-cancel"
        aria-label={`Cancel signing in to ${name}`}
        onClick={() => cancelServerSignIn(name)}
      >
        Cancel
      </button>
    </span>
  );
}
