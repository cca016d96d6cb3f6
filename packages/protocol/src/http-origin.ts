// The one way an origin is read from configuration or a request: an http(s) URL reduced to its
// serialised origin (lower-case scheme and host, no default port, no trailing slash).

/**
 * The serialised origin of an http or https URL (`HTTP://LocalHost:80/x` → `http://localhost`).
 *
 * @param value - an origin or any URL on it.
 * @returns the origin, or undefined when the value is not an http(s) URL; never throws.
 */
export function httpOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return url.origin;
}

/**
 * Whether a value is exactly an http(s) origin, as written (`https://chat.example.com`, with at
 * most a trailing `/`), and not a longer URL on it.
 *
 * @returns true when {@link httpOrigin} gives the value back unchanged; never throws.
 */
export function isHttpOrigin(value: string): boolean {
  const origin = httpOrigin(value);
  return origin !== undefined && value.replace(/\/$/, "").toLowerCase() === origin;
}
