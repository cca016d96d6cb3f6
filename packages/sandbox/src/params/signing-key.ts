// HMAC-SHA-256 with the sandbox's signing key, for the URLs the sandbox serves only when signed
// (the proxy URL the host hands its page, the view URL the proxy hands its frame). WebCrypto, so
// the same code runs in Node 20 and in browsers, and nothing of Node reaches the browser entry.
import { SandboxConfigurationError } from "../sandbox-error";

/** Shortest signing key accepted, in bytes. */
export const minimumSigningKeyBytes = 32;

/** A sandbox's signing key: at least 32 bytes, or text of at least 32 characters. */
export type SigningKey = string | Uint8Array;

/** WebCrypto's key type, named without the DOM library (Node and browsers both have it). */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const encoder = new TextEncoder();
const importedKeys = new WeakMap<object, Promise<HmacKey>>();
const textKeys = new Map<string, Promise<HmacKey>>();

function keyBytes(key: SigningKey): Uint8Array<ArrayBuffer> {
  const bytes = typeof key === "string" ? encoder.encode(key) : key;
  if (bytes.length < minimumSigningKeyBytes) {
    throw new SandboxConfigurationError(
      "invalid_signing_key",
      `The sandbox signing key has ${bytes.length} bytes; give it at least ${minimumSigningKeyBytes} random bytes.`,
    );
  }
  return new Uint8Array(bytes);
}

function importKey(key: SigningKey): Promise<HmacKey> {
  const cached = typeof key === "string" ? textKeys.get(key) : importedKeys.get(key);
  if (cached !== undefined) return cached;
  const bytes = keyBytes(key);
  const imported = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  if (typeof key === "string") textKeys.set(key, imported);
  else importedKeys.set(key, imported);
  return imported;
}

function base64Url(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=");
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/**
 * Signs a text.
 *
 * @returns the HMAC-SHA-256 of the UTF-8 text, base64url without padding (43 characters).
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function signText(text: string, key: SigningKey): Promise<string> {
  const signature = await crypto.subtle.sign(
    "HMAC",
    await importKey(key),
    new Uint8Array(encoder.encode(text)),
  );
  return base64Url(signature);
}

/**
 * Checks a signature made by {@link signText} (in constant time, by WebCrypto).
 *
 * @returns whether `signature` is the text's signature with this key; false for any malformed
 *   signature, never throws for request input.
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function verifyText(
  text: string,
  signature: string,
  key: SigningKey,
): Promise<boolean> {
  const bytes = fromBase64Url(signature);
  const imported = await importKey(key);
  if (bytes === undefined) return false;
  return crypto.subtle.verify("HMAC", imported, bytes, new Uint8Array(encoder.encode(text)));
}
