// Disconnecting revokes what the host holds (RFC 7009): the refresh token, then the access token,
// at the authorization server's revocation endpoint, when its metadata names one.
import type { FetchLike } from "@modelcontextprotocol/client";
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import type { ServerGrant } from "./server-grant";

/**
 * Revokes a grant's tokens.
 *
 * @param grant - the person's grant.
 * @param entry - the server (its configured client secret, if any).
 * @param fetchFn - the guarded fetch.
 * @returns true when the authorization server accepted a revocation; false when it offers none.
 * @throws when the endpoint could not be reached or refused (the caller forgets the grant anyway).
 */
export async function revokeGrant(
  grant: ServerGrant,
  entry: McpRemoteServerConfig,
  fetchFn: FetchLike,
): Promise<boolean> {
  const metadata = grant.discovery?.authorizationServerMetadata as
    { revocation_endpoint?: unknown } | undefined;
  const endpoint = metadata?.revocation_endpoint;
  const clientId = entry.oauth?.clientId ?? grant.client?.client_id;
  if (typeof endpoint !== "string" || clientId === undefined || grant.tokens === undefined)
    return false;
  const secret =
    entry.oauth?.clientSecret ??
    (grant.client as { client_secret?: string } | undefined)?.client_secret;
  const tokens: [string, string][] = [];
  if (grant.tokens.refresh_token !== undefined)
    tokens.push([grant.tokens.refresh_token, "refresh_token"]);
  tokens.push([grant.tokens.access_token, "access_token"]);
  let revoked = false;
  for (const [token, hint] of tokens) {
    const body = new URLSearchParams({ token, token_type_hint: hint, client_id: clientId });
    if (secret !== undefined) body.set("client_secret", secret);
    const response = await fetchFn(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    // RFC 7009 §2.2: 200 for a revoked token and for one already invalid. An authorization server
    // may refuse to revoke a self-contained (JWT) access token (`unsupported_token_type`, §2.2.1);
    // it then expires by itself, and revoking the refresh token is what ends the grant.
    if (response.ok) revoked = true;
    else if (hint === "refresh_token" || !(await isUnsupportedTokenType(response))) {
      throw new Error(`The revocation endpoint answered HTTP ${response.status}.`);
    }
  }
  return revoked;
}

/** Whether a refusal says the server does not revoke this kind of token. */
async function isUnsupportedTokenType(response: Response): Promise<boolean> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return body.error === "unsupported_token_type";
  } catch {
    return false;
  }
}
