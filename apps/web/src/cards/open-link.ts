// What `ui/open-link` may open. A view runs code the person did not write, so the only links
// that leave the sandbox are ordinary web pages, opened in a new tab without a handle back to us.

/** Longest URL a view may ask the host to open, in characters. */
export const maximumLinkLength = 8_192;

/** The schemes a view's link may use. */
export const openableSchemes: readonly string[] = ["http:", "https:"];

/** What {@link decideOpenLink} concluded about a link. */
export type OpenLinkDecision =
  | { readonly allowed: true; readonly url: string }
  | { readonly allowed: false; readonly reason: string };

/**
 * Decides whether a link a view asked for may be opened: only absolute http(s) URLs are.
 * `javascript:`, `data:`, `blob:`, `file:`, relative and malformed URLs are refused, so a view
 * can neither run script in a new tab nor reach local files.
 *
 * @param url - the `url` of the view's `ui/open-link` request.
 * @returns `{ allowed: true, url }` with the normalised URL, or `{ allowed: false, reason }`
 *   with a sentence for the card's log; never throws.
 */
export function decideOpenLink(url: unknown): OpenLinkDecision {
  if (typeof url !== "string" || url.trim() === "") {
    return { allowed: false, reason: "The app asked to open a link without a URL." };
  }
  if (url.length > maximumLinkLength) {
    return {
      allowed: false,
      reason: `The app asked to open a link longer than ${maximumLinkLength} characters; it was not opened.`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      allowed: false,
      reason: "The app asked to open a link that is not an absolute URL; it was not opened.",
    };
  }
  if (!openableSchemes.includes(parsed.protocol)) {
    return {
      allowed: false,
      reason: `The app asked to open a "${parsed.protocol}" link; only http and https links are opened.`,
    };
  }
  return { allowed: true, url: parsed.href };
}

/**
 * Opens an allowed link in a new tab that cannot reach back to the chat page
 * (`noopener,noreferrer`).
 *
 * @param target - the window that opens it (the chat page's).
 * @param url - a URL that {@link decideOpenLink} allowed.
 */
export function openInNewTab(target: Pick<Window, "open">, url: string): void {
  target.open(url, "_blank", "noopener,noreferrer");
}
