import type { ServerStatus } from "@mcp-chat-host/protocol";

/**
 * A sign-in this tab started for one server (the "Connect <server>" flow):
 * - `asking`: `server:connect` was sent; `popup` is the window opened for it (null when the
 *   browser blocked it);
 * - `link`: the browser blocked the popup, so the person opens `url` with a link;
 * - `waiting`: the authorization server's page is open; the tab waits for `servers:state`.
 */
export type ServerSignIn =
  | { step: "asking"; popup: Window | null }
  | { step: "link"; url: string }
  | { step: "waiting"; popup: Window | null };

/** A sentence about the last action on one server: why it failed, or what it did. */
export interface ServerMessage {
  kind: "error" | "note";
  text: string;
}

/** The person's MCP servers as last heard, and the sign-ins this tab is running. */
export interface ServersSlice {
  /** The servers (`servers:list`, then each `servers:state`); null until the server answered. */
  servers: ServerStatus[] | null;
  /** Why the list could not be read, to show in the servers panel. */
  serversError: string | null;
  /** The sign-ins this tab started, by server name. */
  serverSignIns: Record<string, ServerSignIn>;
  /** The sentence of each server's last action (a refused Connect, a Disconnect), by name. */
  serverMessages: Record<string, ServerMessage>;
  /** The servers whose "Connect" bar in the chat the person dismissed (for this page's life). */
  dismissedSignIns: Record<string, true>;
  /**
   * Replaces the list (`servers:list`, `servers:state`). A sign-in ends when its server is
   * connected or failed, went back from `connecting` to `needs-sign-in` (the sign-in failed), or
   * is no longer listed; a connected server's old message goes.
   *
   * @returns the sign-ins that ended (their popups are the caller's to close).
   */
  replaceServers(servers: ServerStatus[]): ServerSignIn[];
  /** Shows or clears why the list could not be read. */
  setServersError(message: string | null): void;
  /** Starts, moves on or (with null) ends a server's sign-in. */
  setServerSignIn(name: string, signIn: ServerSignIn | null): void;
  /** Shows or clears a server's message. */
  setServerMessage(name: string, message: ServerMessage | null): void;
  /** Hides a server's "Connect" bar in the chat. */
  dismissSignIn(name: string): void;
}
