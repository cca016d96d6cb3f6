import { isIP } from "node:net";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import type { AuthOptions } from "./auth";
import { HttpLayerError } from "../errors/http-layer-error";

/** The address the server binds when none is given. */
export const DEFAULT_BIND_ADDRESS = "127.0.0.1";

/**
 * Whether an address only accepts connections from this machine: a loopback host
 * (`isLoopbackHost` of the protocol package) that is neither a wildcard address (binding
 * `0.0.0.0` or `::` listens on every interface) nor a `*.localhost` name (the system resolver,
 * unlike a browser, may send it to DNS).
 *
 * @param address - a bind address or host name (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, ...).
 * @returns true for `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped loopback.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (isWildcardAddress(bare) || bare.endsWith(".localhost")) return false;
  return isLoopbackHost(bare) && (bare === "localhost" || isIP(bare) !== 0);
}

/**
 * Whether an address listens on every interface (`0.0.0.0`, `::`).
 *
 * @param address - a bind address.
 * @returns true for the wildcard addresses.
 */
export function isWildcardAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  return bare === "0.0.0.0" || bare === "::" || bare === "";
}

/**
 * Refuses to expose the server beyond this machine without an explicit choice of auth: binding a
 * non-loopback address needs `auth` to be configured (an explicit `{ mode: "token" }` counts).
 * The default token auth is only assumed on loopback, where the printed URL is the only way in.
 *
 * @param bindAddress - the address `listen()` will bind.
 * @param auth - the auth option exactly as the caller passed it (undefined when left out).
 * @throws {HttpLayerError} `unsafe_bind` when the address is not loopback and auth was left out.
 */
export function assertBindAllowed(bindAddress: string, auth: AuthOptions | undefined): void {
  if (isLoopbackAddress(bindAddress) || auth !== undefined) return;
  throw new HttpLayerError(
    "unsafe_bind",
    `Refusing to listen on ${bindAddress} without auth configured: anyone who can reach that ` +
      `address could use the host and its tools. Bind 127.0.0.1, or pass an explicit auth option ` +
      `({ mode: "token" }, { mode: "oidc", ... }, { mode: "trusted-header", ... } or { mode: "function", ... }).`,
  );
}

/**
 * The host part of a URL for an address (IPv6 in brackets; wildcard addresses become 127.0.0.1,
 * which is how a browser on this machine reaches them).
 *
 * @param address - a bind address.
 * @returns the host name to put in a URL.
 */
export function urlHostFor(address: string): string {
  if (isWildcardAddress(address)) return "127.0.0.1";
  const bare = address.replace(/^\[|\]$/g, "");
  return isIP(bare) === 6 ? `[${bare}]` : bare;
}
