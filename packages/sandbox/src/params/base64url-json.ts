// JSON in base64url (RFC 4648 section 5, no padding): safe in a query string without escaping,
// and built from TextEncoder/btoa so the same code runs in the browser and in Node 20.

/**
 * Encodes a value as base64url JSON.
 *
 * @returns the encoded text (UTF-8 JSON, base64url, no padding).
 * @throws {TypeError} when the value cannot be turned into JSON (a cycle, a BigInt) or is undefined.
 */
export function encodeBase64UrlJson(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new TypeError("The value has no JSON form; pass an object.");
  let binary = "";
  for (const byte of new TextEncoder().encode(json)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Decodes base64url JSON made by {@link encodeBase64UrlJson}.
 *
 * @returns the parsed value.
 * @throws {SyntaxError} when the text is not base64url, not UTF-8 or not JSON.
 */
export function decodeBase64UrlJson(text: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    throw new SyntaxError("Not base64url text.");
  }
  const padded =
    text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SyntaxError("Not UTF-8 text.");
  }
  return JSON.parse(json);
}
