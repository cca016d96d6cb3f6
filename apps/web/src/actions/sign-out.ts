import { sessionBinding } from "@mcp-chat-host/protocol";
import { readSessionBinding } from "../socket/session-binding";
import { useHostStore } from "../state/host-store";

/** Where the page goes after a sign-out; a seam for tests. */
export type Navigate = (url: string) => void;

/**
 * Signs the person out (the OpenID Connect mode): `POST /auth/logout` with the session's binding
 * ends the sign-in and every tab's socket on the server, then the page forgets its binding and
 * goes where the server says (the provider's sign-out, which comes back to `/auth/signed-out`).
 * A failure is shown as a notice and the page stays.
 *
 * @param navigate - how to leave the page (default `window.location.assign`).
 */
export async function signOut(
  navigate: Navigate = (url) => window.location.assign(url),
): Promise<void> {
  const binding = readSessionBinding();
  try {
    const response = await fetch("/auth/logout", {
      method: "POST",
      headers: binding === undefined ? {} : { [sessionBinding.header]: binding },
      credentials: "same-origin",
    });
    const answer = (await response.json()) as { ok?: boolean; value?: { next?: unknown } };
    const next = answer.value?.next;
    if (!response.ok || answer.ok !== true || typeof next !== "string") {
      throw new Error(`status ${response.status}`);
    }
    for (const storage of [window.localStorage, window.sessionStorage]) {
      try {
        storage.removeItem(sessionBinding.storageKey);
      } catch {
        // Storage may be refused; the server has ended the sign-in anyway.
      }
    }
    navigate(next);
  } catch {
    useHostStore
      .getState()
      .addNotice("error", "Signing out failed; check the connection and try again.");
  }
}
