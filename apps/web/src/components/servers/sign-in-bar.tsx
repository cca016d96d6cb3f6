import { useShallow } from "zustand/react/shallow";
import { useHostStore } from "../../state/host-store";
import { serversNeedingSignIn } from "../../state/servers-slice";
import { ConnectControl } from "./connect-control";
import { ServerMessageLine } from "./server-row";
import { serverStateText, showsReason } from "./server-state-text";
import "./servers.css";

/**
 * A compact bar above a chat's messages naming the person's servers that need sign-in, each with
 * "Connect <server>" (the same flow as the servers panel's) and a dismiss button that hides it
 * for as long as the page is open.
 */
export function SignInBar() {
  const servers = useHostStore(
    useShallow((state) =>
      serversNeedingSignIn(state.servers).filter(
        (server) => server.signIn && state.dismissedSignIns[server.name] !== true,
      ),
    ),
  );
  const signIns = useHostStore((state) => state.serverSignIns);
  const dismiss = useHostStore((state) => state.dismissSignIn);
  if (servers.length === 0) return null;
  return (
    <section className="sign-in-bar" data-testid="sign-in-bar" aria-label="Servers to sign in to">
      <ul className="sign-in-bar-list">
        {servers.map((server) => {
          const signIn = signIns[server.name];
          return (
            <li key={server.name} data-testid="sign-in-bar-item" data-server={server.name}>
              <div className="sign-in-bar-row">
                <span className="sign-in-bar-text">
                  {signIn === undefined ? (
                    <>
                      <strong>{server.name}</strong> needs you to sign in
                      {showsReason(server) ? `: ${server.reason}` : "."}
                    </>
                  ) : (
                    <>
                      <strong>{server.name}</strong>: {serverStateText(server, signIn)}
                    </>
                  )}
                </span>
                <ConnectControl name={server.name} label={`Connect ${server.name}`} />
                <button
                  type="button"
                  className="icon-button"
                  data-testid="sign-in-bar-dismiss"
                  aria-label={`Dismiss the sign-in note for ${server.name}`}
                  title="Dismiss"
                  onClick={() => dismiss(server.name)}
                >
                  ×
                </button>
              </div>
              <ServerMessageLine name={server.name} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
