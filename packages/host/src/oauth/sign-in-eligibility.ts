// Which configured servers people sign in to with their own account: a remote server whose
// connection is per conversation (a process-wide one would carry one person's token for everyone)
// and that sends no static Authorization header of the operator's (unless its entry says both).
import {
  effectiveShareMode,
  type McpRemoteServerConfig,
  type McpServerConfig,
} from "@mcp-chat-host/connection";

/**
 * Whether people sign in to this server themselves (OAuth, when it answers 401).
 *
 * @param entry - a configured server.
 * @returns the remote entry when they do; undefined otherwise.
 */
export function signInEntry(entry: McpServerConfig | undefined): McpRemoteServerConfig | undefined {
  if (entry?.kind !== "remote" || effectiveShareMode(entry) === "process") return undefined;
  const hasAuthorization = Object.keys(entry.headers).some(
    (header) => header.toLowerCase() === "authorization",
  );
  return hasAuthorization && entry.oauth === undefined ? undefined : entry;
}
