import { useEffect, useId } from "react";
import { listServers } from "../../actions/list-servers";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { HostDialog } from "../../ui/host-dialog";
import { AddServerForm } from "./add-server-form";
import { ServerRow } from "./server-row";
import "./servers.css";

/**
 * The person's MCP servers: each one's state, why it failed or asks for sign-in, the scopes
 * granted, Connect or Disconnect, and (where the host allows it) adding and removing servers of
 * their own. Shows the list as last heard at once and asks the server
 * again (`servers:list`) as it opens; `servers:state` keeps it current. Escape closes it.
 */
export function ServersPanel(props: { onClose: () => void }) {
  const { onClose } = props;
  const socket = useSocket();
  const servers = useHostStore((state) => state.servers);
  const error = useHostStore((state) => state.serversError);
  const titleId = useId();

  useEffect(() => {
    void listServers(socket);
  }, [socket]);

  return (
    <HostDialog
      className="modal servers-panel"
      labelledBy={titleId}
      testId="servers-panel"
      onEscape={onClose}
      onBackdropPress={onClose}
    >
      <header className="modal-header">
        <h2 id={titleId}>Your MCP servers</h2>
        <button
          type="button"
          className="button button-quiet"
          onClick={onClose}
          data-testid="servers-panel-close"
        >
          Close
        </button>
      </header>
      {error !== null ? (
        <p className="inline-error" role="alert" data-testid="servers-error">
          Could not ask the server: {error}
        </p>
      ) : null}
      {servers === null && error === null ? <p>Loading…</p> : null}
      {servers !== null && servers.length === 0 ? (
        <p data-testid="servers-empty">No MCP servers are configured for you.</p>
      ) : null}
      {servers !== null && servers.length > 0 ? (
        <ul className="server-list" data-testid="server-list">
          {servers.map((server) => (
            <ServerRow key={server.name} server={server} />
          ))}
        </ul>
      ) : null}
      <AddServerForm />
    </HostDialog>
  );
}
