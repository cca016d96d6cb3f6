// The `frame-ancestors` source list of a sandbox page. CSP's host-source grammar has no form for
// an IPv6 address: measured in Debian Chromium 156, `http://[::1]:8787` (and `[0:0:0:0:0:0:0:1]`,
// `::1`, a bare `[::1]:8787`) is refused with "The Content-Security-Policy directive
// 'frame-ancestors' does not support the source expression …" and ignored, once per page. An
// ignored entry admits nothing, so leaving it out changes no verdict and spares the console.

/**
 * Whether a browser can read an http(s) origin as a CSP source expression: its host is a name or
 * an IPv4 address, not a bracketed IPv6 literal.
 *
 * @param origin - a serialised origin (`http://127.0.0.1:3000`).
 */
export function isCspReadableOrigin(origin: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\/\[/i.test(origin);
}

/**
 * The `frame-ancestors` value for these origins: the ones a browser can read, in order, or
 * `'none'` when none is left. A page on an IPv6 origin cannot be named, so a sandbox page framed
 * under one is refused, as it would be with the unreadable entry.
 *
 * @param origins - serialised http(s) origins, already checked.
 */
export function frameAncestorsValue(origins: readonly string[]): string {
  const readable = origins.filter(isCspReadableOrigin);
  return readable.length === 0 ? "'none'" : readable.join(" ");
}
