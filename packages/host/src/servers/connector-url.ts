// Checking the address of a server a person adds (a connector) before the host reaches it: the
// host fetches it from inside the operator's network, so an address of that network (or of this
// machine) would let a person probe what they cannot reach themselves. The name is resolved once,
// every address it has must be public, and the connection is pinned to the address checked, so a
// name that changes its answer afterwards (DNS rebinding) still reaches only that address.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import type { FetchLike } from "@modelcontextprotocol/client";
import { Agent, fetch as undiciFetch } from "undici";
import { isNonPublicAddress } from "../oauth/oauth-url-policy";
import type { ConnectorPolicy } from "../session/connector-policy";

/** A connector's address the host refuses, with the sentence the person reads. */
export class ConnectorUrlRefused extends Error {
  override readonly name = "ConnectorUrlRefused";
}

/** Resolves a host name to all its addresses (node:dns/promises `lookup` with `all: true`). */
export type ResolveAddresses = (name: string) => Promise<{ address: string; family: number }[]>;

/** A checked connector address and the one IP address its connections go to. */
export interface CheckedConnectorUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

const resolveWithDns: ResolveAddresses = (name) => dnsLookup(name, { all: true, verbatim: true });

function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^::ffff:/i, "");
  return /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === "::1";
}

function isUnspecifiedAddress(address: string): boolean {
  return /^0+(\.0+){3}$/.test(address) || /^[0:]+$/.test(address);
}

/**
 * Checks the address of a server a person wants to add.
 *
 * @param value - what the person typed.
 * @param policy - the operator's `host.connectors`.
 * @param resolve - how names are resolved (node's resolver by default; injectable for tests).
 * @returns the URL and the address to pin its connections to.
 * @throws {ConnectorUrlRefused} with one sentence saying what is wrong and what to do.
 */
export async function checkConnectorUrl(
  value: string,
  policy: ConnectorPolicy,
  resolve: ResolveAddresses = resolveWithDns,
): Promise<CheckedConnectorUrl> {
  const shown = JSON.stringify(value.slice(0, 200));
  const refuse = (why: string): never => {
    throw new ConnectorUrlRefused(why);
  };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return refuse(
      `${shown} is not a web address; paste the server's full URL, starting with https://.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse(
      `The server's address must start with https://, not ${JSON.stringify(url.protocol.slice(0, 20))}; ask its provider for its https address.`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    return refuse(
      "The address carries a user name or password; remove them, since you sign in to the server after adding it.",
    );
  }
  if (url.protocol === "http:" && !policy.allowLoopback) {
    return refuse(
      `The address ${shown} is plain http; this host adds only servers reached over https.`,
    );
  }
  if (!policy.allows(url)) {
    return refuse(
      `The address ${shown} is not one this host's operator allows; it must match ${policy.patterns.join(" or ")}.`,
    );
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    addresses = await resolve(host).catch(() => []);
    if (addresses.length === 0) {
      return refuse(`The name "${host}" could not be found; check the server's address.`);
    }
  }
  for (const { address } of addresses) {
    if (isUnspecifiedAddress(address)) {
      return refuse(
        `The address ${shown} leads to ${address}, which reaches this machine; this host will not add it.`,
      );
    }
    const loopback = isLoopbackAddress(address);
    if (loopback && policy.allowLoopback) continue;
    if (isNonPublicAddress(address)) {
      return refuse(
        `The address ${shown} leads to a private network address (${address}); this host adds only servers on the public internet.`,
      );
    }
    if (url.protocol === "http:") {
      return refuse(
        `The address ${shown} is plain http to a public address; this host adds only servers reached over https.`,
      );
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A fetch whose connections all go to one address, whatever the URL's name resolves to later
 * (TLS still checks the server's certificate for the name in the URL).
 *
 * @param checked - the address {@link checkConnectorUrl} checked.
 * @returns the fetch, and `close` to end its connections.
 */
export function pinnedFetch(checked: CheckedConnectorUrl): {
  fetch: FetchLike;
  close: () => Promise<void>;
} {
  const { address, family } = checked;
  const lookup: LookupFunction = (_name, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const agent = new Agent({ connect: { lookup } });
  const fetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    })) as unknown as FetchLike;
  return { fetch, close: () => agent.close() };
}

/**
 * The server entry of a person's connector: a remote server with no headers of the operator's,
 * opened per session with the person's own sign-in (the same entry wherever it is built, so the
 * sign-in callback and the session agree on it).
 *
 * @param name - the connector's name.
 * @param url - its checked address.
 * @returns the entry.
 */
export function connectorEntry(name: string, url: string): McpRemoteServerConfig {
  return { kind: "remote", name, url, headers: {}, allowHttp: false, share: "conversation" };
}
