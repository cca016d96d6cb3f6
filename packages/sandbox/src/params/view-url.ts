// The URL a view's document is loaded from, on the view's own origin. It carries the view's CSP
// (as the proxy URL gave it) and the host page's origin, and a signature over both made with the
// sandbox's key, so a view that navigates itself to a hand-made URL with a looser CSP gets a
// refusal, not a page. Only the proxy page ever sees a signed URL (it is written into the proxy
// page, which no view can read: the proxy is another origin).
import { SandboxConfigurationError } from "../sandbox-error";

/** Path of the view's document on a view origin. */
export const viewPagePath = "/view";

/** Shortest signing key accepted, in bytes. */
export const minimumSigningKeyBytes = 32;

/** A sandbox's signing key: at least 32 bytes, or text of at least 32 characters. */
export type SigningKey = string | Uint8Array;

/** What a view URL carries besides its signature. */
export interface ViewTicket {
  /** The host page's origin (the proxy checked it). */
  host: string;
  /** The `csp` parameter exactly as the proxy URL carried it (base64url JSON), if any. */
  csp?: string | undefined;
}

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

function signedText(viewOrigin: string, ticket: ViewTicket): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    encoder.encode(["mcp-chat-host view 1", viewOrigin, ticket.host, ticket.csp ?? ""].join("\n")),
  );
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
 * Builds the signed URL of a view's document.
 *
 * @param viewOrigin - the view's origin (`http://notes.localhost:41234`).
 * @param ticket - the host page's origin and the CSP parameter.
 * @param key - the sandbox's signing key.
 * @returns `<viewOrigin>/view?host=...&csp=...&sig=...`.
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function signViewUrl(
  viewOrigin: string,
  ticket: ViewTicket,
  key: SigningKey,
): Promise<string> {
  const signature = await crypto.subtle.sign(
    "HMAC",
    await importKey(key),
    signedText(viewOrigin, ticket),
  );
  const url = new URL(viewPagePath, viewOrigin);
  url.searchParams.set("host", ticket.host);
  if (ticket.csp !== undefined) url.searchParams.set("csp", ticket.csp);
  url.searchParams.set("sig", base64Url(signature));
  return url.toString();
}

/**
 * Checks a view URL's signature.
 *
 * @param url - the requested URL (its origin is the view origin it was signed for).
 * @param key - the sandbox's signing key.
 * @returns the ticket when the signature is valid and every parameter appears once, else
 *   undefined; never throws for request input.
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function verifyViewUrl(url: URL, key: SigningKey): Promise<ViewTicket | undefined> {
  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (!["host", "csp", "sig"].includes(name) || params.getAll(name).length !== 1)
      return undefined;
  }
  const host = params.get("host");
  const signature = fromBase64Url(params.get("sig") ?? "");
  if (host === null || signature === undefined) return undefined;
  const ticket: ViewTicket = { host, csp: params.get("csp") ?? undefined };
  const valid = await crypto.subtle.verify(
    "HMAC",
    await importKey(key),
    signature,
    signedText(url.origin, ticket),
  );
  return valid ? ticket : undefined;
}
