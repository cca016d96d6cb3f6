import type { ServerState, ServerStatus } from "@mcp-chat-host/protocol";
import type { ServerSignIn } from "../../state/types/servers";

const stateWords: Record<ServerState, string> = {
  connected: "Connected",
  "needs-sign-in": "Needs sign-in",
  connecting: "Signing in…",
  failed: "Failed",
  idle: "Not started",
};

/**
 * Where a server stands, in words: this tab's own sign-in first (it knows a window is open for
 * it), else the server's state.
 *
 * @param server - the server as last heard.
 * @param signIn - this tab's sign-in for it, if any.
 */
export function serverStateText(server: ServerStatus, signIn: ServerSignIn | undefined): string {
  if (signIn === undefined) return stateWords[server.state];
  if (signIn.step === "waiting" || (signIn.step === "asking" && signIn.popup !== null)) {
    return "Signing in… (finish in the window that opened)";
  }
  return "Signing in…";
}

/** Whether a server's reason is worth showing: it says why it failed or why it asks. */
export function showsReason(server: ServerStatus): boolean {
  return (
    server.reason !== undefined &&
    server.reason !== "" &&
    (server.state === "failed" || server.state === "needs-sign-in")
  );
}

/**
 * The host of the authorization server the person signed in at (`https://login.example.com/a`
 * → `login.example.com`), or the issuer as given when it is no URL.
 */
export function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}
