// The name sits in the URI's authority, so every character outside RFC 3986's "unreserved" set
// is encoded: "/", "?", "#", ":" or "@" would otherwise change what the URI means.
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The URI of an app's page: `ui://<name>`, with every character of the name outside RFC 3986's
 * unreserved set percent-encoded as UTF-8.
 *
 * @returns the URI, in the form `new URL()` gives back unchanged.
 */
export function appResourceUri(name: string): string {
  let encoded = "";
  for (const character of name) {
    encoded += UNRESERVED.test(character)
      ? character
      : [...new TextEncoder().encode(character)]
          .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
          .join("");
  }
  return `ui://${encoded}`;
}
