import { useSocketContext } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";

/**
 * Says when the page is not talking to the server, and what happens or what to do: connecting,
 * reconnecting (automatic), signed out (open the sign-in link again), disconnected (Try again).
 */
export function ConnectionBanner() {
  const status = useHostStore((state) => state.status);
  const message = useHostStore((state) => state.statusMessage);
  const { retry } = useSocketContext();
  if (status === "connected") return null;
  const text: Record<Exclude<typeof status, "connected">, string> = {
    connecting: "Connecting to the server…",
    reconnecting: "The connection to the server was lost. Reconnecting…",
    "signed-out":
      "You are not signed in. Open the sign-in link the server printed when it started, then reload this page.",
    disconnected: "Disconnected from the server.",
  };
  return (
    <div
      className={`connection-banner connection-banner-${status}`}
      role={status === "signed-out" || status === "disconnected" ? "alert" : "status"}
      data-testid="connection-banner"
      data-status={status}
    >
      <span>{text[status]}</span>
      {message !== null && message !== text[status] ? (
        <span className="connection-banner-detail"> {message}</span>
      ) : null}
      {status === "disconnected" || status === "signed-out" ? (
        <button
          type="button"
          className="button button-small"
          data-testid="reconnect-button"
          onClick={retry}
        >
          Try again
        </button>
      ) : null}
    </div>
  );
}
