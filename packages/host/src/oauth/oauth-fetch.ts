// The fetch the SDK's OAuth client is given: every address a server's metadata names (resource
// metadata, authorization server metadata, registration, token and revocation endpoints) is
// checked before it is fetched, host names are resolved and refused when they lead to a private
// address (a name that points inside the operator's network), and redirects are not followed.
import { lookup } from "node:dns/promises";
import type { FetchLike } from "@modelcontextprotocol/client";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import {
  checkOAuthUrl,
  isNonPublicAddress,
  OAuthUrlRefused,
  type OAuthUrlPolicy,
} from "./oauth-url-policy";

/** Longest wait for one OAuth request, in ms. */
const OAUTH_REQUEST_TIMEOUT_MS = 15_000;

/**
 * A fetch that refuses what the policy refuses.
 *
 * @param server - the MCP server's name, for the sentences.
 * @param policy - what is accepted.
 * @param resolve - how names are resolved (the system's resolver; injectable for tests).
 * @returns the fetch for `auth()`.
 */
export function guardedOAuthFetch(
  server: string,
  policy: OAuthUrlPolicy,
  resolve: (host: string) => Promise<string[]> = async (host) =>
    (await lookup(host, { all: true })).map((entry) => entry.address),
): FetchLike {
  return async (input, init) => {
    const url = checkOAuthUrl(String(input), "address", server, policy);
    if (!isLoopbackHost(url.hostname) && !/^[\d.]+$|:/.test(url.hostname)) {
      let addresses: string[];
      try {
        addresses = await resolve(url.hostname);
      } catch {
        addresses = [];
      }
      if (addresses.some((address) => isNonPublicAddress(address))) {
        throw new OAuthUrlRefused(
          `The server "${server}" gave an address whose name leads into a private network, so this host will not use it and you cannot sign in to that server. Tell the operator of that server.`,
        );
      }
    }
    const signal = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
    return fetch(url, {
      ...init,
      redirect: "error",
      signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    });
  };
}
