// Which URLs a server's OAuth metadata may send the host or the person to. A remote MCP server,
// and the authorization server it names, are not trusted: their metadata could name `file:` or
// `javascript:` pages, an address inside the operator's network, or the host itself (compare
// CVE-2025-6514, where such an `authorization_endpoint` reached a shell). The MCP SDK refuses
// only some of these, so every URL is checked here before it is fetched or opened.
import { BlockList, isIP } from "node:net";
import { isLoopbackHost } from "@mcp-chat-host/protocol";

/** What a URL of a server's OAuth metadata may be. */
export interface OAuthUrlPolicy {
  /**
   * Whether `http:` on a loopback address is accepted (development: an authorization server on
   * this machine). Set when the MCP server itself is on a loopback address, or by the operator.
   */
  allowLoopback: boolean;
  /** Origins of the host itself (its page and sandbox origins): never an OAuth endpoint. */
  hostOrigins: readonly string[];
}

/** A URL the policy refuses, with the sentence the person reads. */
export class OAuthUrlRefused extends Error {
  override readonly name = "OAuthUrlRefused";
}

// Addresses no server on the internet has: the operator's own networks and special ranges.
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address literal is private, loopback, link-local, unspecified or multicast. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.startsWith("[") ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1] !== undefined) return privateRanges.check(mapped[1], "ipv4");
  return privateRanges.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/** Whether an address is the unspecified one (`0.0.0.0`, `::`), which reaches this machine. */
function isUnspecified(host: string): boolean {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  return /^0+(\.0+){0,3}$/.test(bare) || /^[0:]+$/.test(bare) || bare === "0";
}

/**
 * Checks one URL a server's OAuth metadata gave (an endpoint the host fetches, or the page the
 * person is sent to).
 *
 * @param value - the URL as the metadata gave it.
 * @param what - what it is, for the sentence ("sign-in page", "token endpoint").
 * @param server - the MCP server's name, for the sentence.
 * @param policy - what is accepted.
 * @returns the parsed URL.
 * @throws {OAuthUrlRefused} with one sentence naming the server and what is wrong.
 */
export function checkOAuthUrl(
  value: string | URL,
  what: string,
  server: string,
  policy: OAuthUrlPolicy,
): URL {
  const refuse = (why: string): never => {
    throw new OAuthUrlRefused(
      `The server "${server}" gave a ${what} that this host will not use (${why}), so you cannot sign in to it. Tell the operator of that server.`,
    );
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse("it is not a valid address");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse(`its scheme ${JSON.stringify(url.protocol.slice(0, 20))} is not https`);
  }
  if (url.username !== "" || url.password !== "")
    return refuse("it carries a user name or password");
  const host = url.hostname;
  if (isUnspecified(host)) return refuse("it points at 0.0.0.0, which reaches this machine");
  const loopback = isLoopbackHost(host);
  if (loopback && !policy.allowLoopback) return refuse("it points at this machine");
  if (!loopback && isNonPublicAddress(host))
    return refuse("it points at a private network address");
  if (url.protocol === "http:" && !loopback) return refuse("it is plain http, not https");
  if (policy.hostOrigins.includes(url.origin)) return refuse("it points at this host itself");
  return url;
}
