// The URL a view's document is loaded from, on the view's own origin. It carries the view's CSP
// (as the proxy URL gave it) and the host page's origin, and a signature over both made with the
// sandbox's key, so a view that navigates itself to a hand-made URL with a looser CSP gets a
// refusal, not a page. Only the proxy page ever sees a signed URL (it is written into the proxy
// page, which no view can read: the proxy is another origin).
import { signText, verifyText, type SigningKey } from "./signing-key";

/** Path of the view's document on a view origin. */
export const viewPagePath = "/view";

/** What a view URL carries besides its signature. */
export interface ViewTicket {
  /** The host page's origin (the proxy checked it). */
  host: string;
  /** The `csp` parameter exactly as the proxy URL carried it (base64url JSON), if any. */
  csp?: string | undefined;
}

function signedText(viewOrigin: string, ticket: ViewTicket): string {
  return ["mcp-chat-host view 1", viewOrigin, ticket.host, ticket.csp ?? ""].join("\n");
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
  const signature = await signText(signedText(viewOrigin, ticket), key);
  const url = new URL(viewPagePath, viewOrigin);
  url.searchParams.set("host", ticket.host);
  if (ticket.csp !== undefined) url.searchParams.set("csp", ticket.csp);
  url.searchParams.set("sig", signature);
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
  const signature = params.get("sig");
  if (host === null || signature === null) return undefined;
  const ticket: ViewTicket = { host, csp: params.get("csp") ?? undefined };
  const valid = await verifyText(signedText(url.origin, ticket), signature, key);
  return valid ? ticket : undefined;
}
