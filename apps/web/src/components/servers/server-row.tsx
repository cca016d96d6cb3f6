import type { ServerStatus } from "@mcp-chat-host/protocol";
import { disconnectServer } from "../../actions/disconnect-server";
import { useHostStore } from "../../state/host-store";
import { formatTime } from "../../ui/format";
import { ConfirmedAction } from "./confirmed-action";
import { ConnectControl } from "./connect-control";
import { RemoveControl } from "./remove-control";
import { issuerHost, serverStateText, showsReason } from "./server-state-text";

/** The question Disconnect asks first. */
export function disconnectQuestion(name: string): string {
  return `Disconnect ${name}? Its tools leave your chats until you connect again.`;
}

/** A server's last message: a refused Connect or Disconnect (an alert), or what Disconnect did. */
export function ServerMessageLine(props: { name: string }) {
  const message = useHostStore((state) => state.serverMessages[props.name]);
  if (message === undefined) return null;
  return (
    <p
      className={message.kind === "error" ? "inline-error server-message" : "server-message"}
      role={message.kind === "error" ? "alert" : "status"}
      data-testid="server-message"
      data-kind={message.kind}
    >
      {message.text}
    </p>
  );
}

/** Disconnect, asked first, for a connected server the person signed in to. */
function DisconnectControl(props: { name: string }) {
  const { name } = props;
  return (
    <ConfirmedAction
      name={name}
      act={disconnectServer}
      words={{
        id: "disconnect",
        label: "Disconnect",
        question: disconnectQuestion(name),
        confirm: "Yes, disconnect",
        keep: "Keep connected",
        keepName: `Keep connected to ${name}`,
      }}
    />
  );
}

/**
 * One of the person's servers in the servers panel: its name, its state in words, why it failed
 * or asks for sign-in (text, never HTML), the scopes granted and where the person signed in,
 * Connect or Disconnect for a server the person signs in to, Remove for one they added, and the
 * last action's sentence.
 */
export function ServerRow(props: { server: ServerStatus }) {
  const { server } = props;
  const signIn = useHostStore((state) => state.serverSignIns[server.name]);
  const connected = server.state === "connected";
  return (
    <li
      className={`server-row server-row-${server.state}`}
      data-testid="server-row"
      data-server={server.name}
      data-state={server.state}
    >
      <div className="server-row-head">
        <strong className="server-name" data-testid="server-name">
          {server.name}
        </strong>
        <span className="server-state" data-testid="server-state">
          {serverStateText(server, signIn)}
        </span>
        <span className="server-row-actions">
          {server.signIn && (!connected || signIn !== undefined) ? (
            <ConnectControl name={server.name} label="Connect" />
          ) : null}
          {server.signIn && connected && signIn === undefined ? (
            <DisconnectControl name={server.name} />
          ) : null}
          {server.connector === true ? <RemoveControl name={server.name} /> : null}
        </span>
      </div>
      {showsReason(server) ? (
        <p className="server-reason" data-testid="server-reason">
          {server.reason}
        </p>
      ) : null}
      {connected && server.scopes !== undefined && server.scopes.length > 0 ? (
        <p className="server-detail" data-testid="server-scopes">
          Granted:{" "}
          {server.scopes.map((scope) => (
            <code key={scope}>{scope}</code>
          ))}
        </p>
      ) : null}
      {connected && server.issuer !== undefined ? (
        <p className="server-detail" data-testid="server-issuer" title={server.issuer}>
          Signed in at {issuerHost(server.issuer)}
          {server.connectedAt !== undefined ? ` since ${formatTime(server.connectedAt)}` : ""}
        </p>
      ) : null}
      <ServerMessageLine name={server.name} />
    </li>
  );
}
