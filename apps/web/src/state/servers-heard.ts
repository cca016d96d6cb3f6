import type { ServerStatus } from "@mcp-chat-host/protocol";
import { useHostStore } from "./host-store";
import type { ServerSignIn } from "./types/servers";

/**
 * Closes a sign-in's popup, when it has one. Closed whatever `popup.closed` says: once a page with
 * `Cross-Origin-Opener-Policy` loaded in it, it reads true while the window is still open, and
 * closing a closed window does nothing.
 */
export function closeSignInWindow(signIn: ServerSignIn | undefined): void {
  if (signIn === undefined || signIn.step === "link" || signIn.popup === null) return;
  signIn.popup.close();
}

/**
 * The person's servers as the server now tells them (`servers:list`, `servers:state`): replaces
 * the list, and closes the popups of the sign-ins that ended (the callback page closes its own
 * window; this covers a sign-in that ended otherwise, e.g. the server failed meanwhile).
 */
export function serversHeard(servers: ServerStatus[]): void {
  for (const ended of useHostStore.getState().replaceServers(servers)) closeSignInWindow(ended);
}
