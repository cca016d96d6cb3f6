import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";

/** The note after a disconnect, by whether the authorization server revoked the grant. */
export function disconnectedMessage(server: string, revoked: boolean): string {
  return revoked
    ? `Disconnected from ${server}; its authorization server revoked the grant.`
    : `Disconnected from ${server}. Its authorization server could not revoke the grant, so it stays valid there until it expires.`;
}

/**
 * Disconnects one of the person's servers (`server:disconnect`): the host forgets the person's
 * grant (revoking it where the authorization server offers that). The new state arrives with
 * `servers:state`; the server's message says what happened, or why it failed.
 *
 * @returns when the answer is shown; never rejects.
 */
export async function disconnectServer(socket: HostSocket, name: string): Promise<void> {
  const store = useHostStore.getState;
  store().setServerMessage(name, null);
  const ack = await request(socket, "server:disconnect", { name });
  store().setServerMessage(
    name,
    ack.ok
      ? { kind: "note", text: disconnectedMessage(name, ack.value.revoked) }
      : { kind: "error", text: ack.error.message },
  );
}
