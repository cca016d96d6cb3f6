import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";
import { serversHeard } from "../state/servers-heard";

/**
 * Asks the server for the person's MCP servers (`servers:list`) and puts them in the store; after
 * every `session:hello`, since `servers:state` tells only of changes. A failure is kept for the
 * servers panel to show.
 *
 * @returns when the answer is applied; never rejects.
 */
export async function listServers(socket: HostSocket): Promise<void> {
  const ack = await request(socket, "servers:list", {});
  if (!ack.ok) {
    useHostStore.getState().setServersError(ack.error.message);
    return;
  }
  serversHeard(ack.value);
}
