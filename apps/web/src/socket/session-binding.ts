import { sessionBinding } from "@mcp-chat-host/protocol";

/** A storage the binding may be read from; a getter, because touching storage can throw. */
export type StorageSource = () => Pick<Storage, "getItem"> | undefined;

/** The page's own storages, in the order the sign-in page writes them. */
const pageStorages: readonly StorageSource[] = [
  () => window.localStorage,
  () => window.sessionStorage,
];

/**
 * The session binding the sign-in page kept in this origin's storage (see `sessionBinding` in
 * the protocol). Storage is per origin, ports included, so no page on another port can read it;
 * the server needs it with the cookie before it opens the socket. Read at every handshake, so a
 * new sign-in in another tab is picked up on the next reconnect.
 *
 * @param storages - where to look, in order (the page's `localStorage`, then `sessionStorage`).
 * @returns the binding, or undefined when the page has none (the server then refuses the socket
 *   and says how to sign in again).
 */
export function readSessionBinding(
  storages: readonly StorageSource[] = pageStorages,
): string | undefined {
  for (const storage of storages) {
    try {
      const value = storage()?.getItem(sessionBinding.storageKey);
      if (typeof value === "string" && value !== "") return value;
    } catch {
      // Storage may be disabled by privacy settings; try the next one.
    }
  }
  return undefined;
}
