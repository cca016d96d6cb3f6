// What `ui/open-link` may open. A view runs code the person did not write, so the only links
// that leave the sandbox are ordinary web pages, opened in a new tab without a handle back to us,
// and a page on this computer or the local network only after the person said yes: such a page
// is a service nobody vetted for the open web (another local user's listener, a router), and the
// browser sends it the cookies of the host's name, since cookies ignore ports.
import { localAddressOf } from "../url/local-address";

/** Longest URL a view may ask the host to open, in characters. */
export const maximumLinkLength = 8_192;

/** The schemes a view's link may use. */
const openableSchemes: readonly string[] = ["http:", "https:"];

/** A link that may be opened only after the person agreed: the URL and the question to ask. */
export interface LinkQuestion {
  readonly url: string;
  /** One sentence naming the address, for a confirm dialog. */
  readonly question: string;
}

/** What {@link decideOpenLink} concluded about a link. */
export type OpenLinkDecision =
  | { readonly allowed: true; readonly url: string }
  | {
      readonly allowed: false;
      readonly reason: string;
      /**
       * Set for a link to this computer or the local network: it is refused unless the person
       * says yes to `ask.question` (a caller that ignores this refuses it, the safe default).
       */
      readonly ask?: LinkQuestion;
    };

/**
 * Decides whether a link a view asked for may be opened: only absolute http(s) URLs are, and
 * those to a loopback, private or link-local address, or to a local name (`localhost`,
 * `*.localhost`, a name without dots, `*.local`, ...), only after asking the person (`ask`).
 * `javascript:`, `data:`, `blob:`, `file:`, relative and malformed URLs are refused, so a view
 * can neither run script in a new tab nor reach local files.
 *
 * @param url - the `url` of the view's `ui/open-link` request.
 * @returns `{ allowed: true, url }` with the normalised URL, or `{ allowed: false, reason }`
 *   with a sentence for the card's log (and `ask` when the person may still allow it); never
 *   throws.
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
  const local = localAddressOf(parsed.hostname);
  if (local !== null) {
    return {
      allowed: false,
      reason: `The app asked to open ${parsed.href}, ${local.description}; it is opened only when the person agrees.`,
      ask: {
        url: parsed.href,
        question: `An app asks to open ${parsed.href}, ${local.description} (${local.address}). Pages there are not on the open web and may receive what this browser sends to that address. Open it?`,
      },
    };
  }
  return { allowed: true, url: parsed.href };
}

/**
 * Opens a link a view asked for: at once when {@link decideOpenLink} allows it; after the person
 * said yes when it names a local address; never otherwise.
 *
 * @param decision - what {@link decideOpenLink} said.
 * @param confirm - asks the person one question; resolves with their answer.
 * @param open - opens an allowed URL (in a new tab without an opener).
 * @returns whether it was opened, and a sentence for the card's log.
 */
export async function openLinkWithConsent(
  decision: OpenLinkDecision,
  confirm: (question: string) => boolean | Promise<boolean>,
  open: (url: string) => void,
): Promise<{ opened: boolean; log: string }> {
  if (decision.allowed) {
    open(decision.url);
    return { opened: true, log: `Opened ${decision.url} in a new tab.` };
  }
  if (decision.ask === undefined) return { opened: false, log: decision.reason };
  if (!(await confirm(decision.ask.question))) {
    return { opened: false, log: `The person chose not to open ${decision.ask.url}.` };
  }
  open(decision.ask.url);
  return { opened: true, log: `Opened ${decision.ask.url} in a new tab, as the person agreed.` };
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
