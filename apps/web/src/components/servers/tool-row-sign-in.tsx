import { useHostStore } from "../../state/host-store";
import { ConnectControl } from "./connect-control";
import { serverStateText } from "./server-state-text";
import "./servers.css";

/**
 * Next to a failed tool call's error: when the call's source is a server that needs the person
 * to sign in, "Connect <server>" (the servers panel's flow); nothing otherwise.
 *
 * @param props.source - the tool's source (its server's name), when known.
 */
export function ToolRowSignIn(props: { source: string | null }) {
  const { source } = props;
  const server = useHostStore((state) =>
    source === null ? undefined : state.servers?.find((known) => known.name === source),
  );
  const signIn = useHostStore((state) =>
    source === null ? undefined : state.serverSignIns[source],
  );
  if (server === undefined || !server.signIn || server.state !== "needs-sign-in") return null;
  return (
    <p className="tool-row-sign-in" data-testid="tool-row-sign-in">
      <span>
        {signIn === undefined
          ? `${server.name} needs you to sign in.`
          : serverStateText(server, signIn)}
      </span>
      <ConnectControl name={server.name} label={`Connect ${server.name}`} />
    </p>
  );
}
