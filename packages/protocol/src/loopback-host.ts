// Whether a host name or address stays on this machine. One definition for every part that asks:
// the sandbox's CSP check (may a view reach this origin?), the connection's credentials check
// (is plain http to this server local?) and the host's bind policy (does this address expose the
// server only to this machine?).

/** IPv4 127.0.0.0/8 as a dotted quad (what the URL parser produces). */
const ipv4Loopback = /^127(\.\d{1,3}){3}$/;

/** `::ffff:127.x.y.z`, written as a dotted quad or as the URL parser writes it (`::ffff:7f00:1`). */
const mappedLoopback = /^::ffff:(127(\.\d{1,3}){3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/;

/**
 * Tells whether a connection to a host name or address stays on this machine: `localhost` and
 * every `*.localhost` name (browsers resolve them to loopback themselves, RFC 6761), 127.0.0.0/8,
 * `::1`, IPv4-mapped loopback, and the unspecified addresses `0.0.0.0` and `::` (a connection to
 * them reaches this machine). Names are compared without case and without a trailing dot; IPv6
 * may come with or without brackets.
 *
 * It answers "where does a connection go", not "who can connect": `0.0.0.0` is loopback here,
 * but binding it listens on every interface (the host's bind policy excludes it).
 *
 * @param host - a URL's `hostname` (`127.0.0.1`, `[::1]`, `app.localhost`) or a bare address.
 * @returns true for the names and addresses above; never throws.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  const bare = name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
  return (
    bare === "localhost" ||
    bare.endsWith(".localhost") ||
    ipv4Loopback.test(bare) ||
    bare === "0.0.0.0" ||
    bare === "::1" ||
    bare === "::" ||
    mappedLoopback.test(bare)
  );
}
