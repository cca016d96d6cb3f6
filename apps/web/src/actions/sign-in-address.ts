import { isLoopbackHost } from "@mcp-chat-host/protocol";

/** The addresses that reach every interface of a machine, not one host (never a sign-in page). */
const unspecifiedHosts = new Set(["0.0.0.0", "[::]"]);

/**
 * The sentence shown when a server's sign-in page address is not https (nor http on this
 * machine), or is no address at all.
 */
export function unsafeSignInAddressMessage(server: string): string {
  return `${server} sent a sign-in page address that is not https, so it was not opened. Ask the operator to check the server's authorization settings.`;
}

/** The sentence shown when a server's sign-in page address is on this host's own origin. */
export function ownOriginSignInAddressMessage(server: string): string {
  return `${server} sent a sign-in page address on this host itself, so it was not opened. Ask the operator to check the server's authorization settings.`;
}

/**
 * Checks the authorization server's page a `server:connect` answered with before the tab opens
 * it: an https URL, or http on a loopback host (a development authorization server on this
 * machine), never `javascript:`, `file:`, `data:` or the like, never the unspecified addresses
 * `0.0.0.0` and `::`, and on this page's own origin only the host's own start of a sign-in
 * (`/oauth/start/<flow>`, which sends the popup on to the authorization server): any other page
 * there could act as the person. The server checks it too; the tab does not rely on that.
 *
 * @param address - the `authorizationUrl` of the answer.
 * @param server - the server's name, for the sentence.
 * @param pageOrigin - this page's origin.
 * @returns the URL to open, or the sentence saying why it is refused.
 */
export function checkSignInAddress(
  address: string,
  server: string,
  pageOrigin: string,
): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { ok: false, message: unsafeSignInAddressMessage(server) };
  }
  const secure =
    url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!secure || unspecifiedHosts.has(url.hostname)) {
    return { ok: false, message: unsafeSignInAddressMessage(server) };
  }
  if (url.origin === pageOrigin && !/^\/oauth\/start\/[\w-]{20,200}$/.test(url.pathname)) {
    return { ok: false, message: ownOriginSignInAddressMessage(server) };
  }
  return { ok: true, url: url.href };
}
