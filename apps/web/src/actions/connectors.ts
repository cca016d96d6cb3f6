// The servers a person adds themselves (connectors): whether this host allows them and which
// addresses, adding one by its address, and removing one. The servers' new states arrive with
// `servers:state`; the list is asked for again too, so the panel shows the change at once.
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";
import { listServers } from "./list-servers";

/** Whether the person may add servers here, and the address patterns the operator allows. */
export interface ConnectorsPolicy {
  allowed: boolean;
  patterns: string[];
}

/**
 * Asks the host whether people may add servers (`connectors:policy`).
 *
 * @returns the policy; "not allowed" when the host cannot say. Never rejects.
 */
export async function connectorsPolicy(socket: HostSocket): Promise<ConnectorsPolicy> {
  const ack = await request(socket, "connectors:policy", {});
  return ack.ok ? ack.value : { allowed: false, patterns: [] };
}

/**
 * Adds a server by its address (`connector:add`).
 *
 * @returns the new server's name, or the host's sentence saying why it was refused. Never rejects.
 */
export async function addConnector(
  socket: HostSocket,
  url: string,
): Promise<{ name: string } | { error: string }> {
  const ack = await request(socket, "connector:add", { url });
  if (!ack.ok) return { error: ack.error.message };
  await listServers(socket);
  return { name: ack.value.name };
}

/**
 * Removes one of the person's own servers (`connector:remove`); a refusal becomes the server's
 * message.
 *
 * @returns when the answer is applied; never rejects.
 */
export async function removeConnector(socket: HostSocket, name: string): Promise<void> {
  const store = useHostStore.getState;
  store().setServerMessage(name, null);
  const ack = await request(socket, "connector:remove", { name });
  if (!ack.ok) {
    store().setServerMessage(name, { kind: "error", text: ack.error.message });
    return;
  }
  await listServers(socket);
}
