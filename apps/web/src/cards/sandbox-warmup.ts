// Keeps the sandbox's browser processes running before a card needs them. The first card of a tab
// otherwise waits for the browser to start a process for the proxy's site and another for the
// view's. One hidden frame on the proxy's origin (holding one on the last view's origin) keeps
// both alive. It shows nothing, runs nothing (no `allow-scripts`; its document's CSP is
// `default-src 'none'`), is never focusable and never receives a view; the host hears nothing
// from it (a card's transport listens only to its own frame's window).
import { warmPagePath, warmViewParam } from "@mcp-chat-host/sandbox";

/** Where the last card's sandbox is remembered, for the warm frame of the next visit. */
export const warmupStorageKey = "mch-sandbox-warmup";

/** The warm frame's `data-testid`. */
const warmupTestId = "sandbox-warmup";

/**
 * The warm document's URL for a card's proxy URL: `/warm` on the proxy's origin, naming the
 * card's view label; undefined for a URL that is not http(s).
 *
 * @param proxyUrl - a card's `page.proxyUrl`.
 */
export function warmupUrlFor(proxyUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const warm = new URL(warmPagePath, url.origin);
  const view = url.searchParams.get("view");
  if (view !== null) warm.searchParams.set(warmViewParam, view);
  return warm.href;
}

/**
 * Creates the hidden, inert warm frame (not yet in a document).
 *
 * @param doc - the document to create it in.
 * @param src - its URL, from {@link warmupUrlFor}.
 */
function createWarmupFrame(doc: Document, src: string): HTMLIFrameElement {
  const frame = doc.createElement("iframe");
  frame.dataset.testid = warmupTestId;
  // Stricter than a card's outer frame: its own origin (the site whose process it keeps), nothing
  // else: no scripts, forms, popups, modals or downloads.
  frame.setAttribute("sandbox", "allow-same-origin");
  frame.setAttribute("aria-hidden", "true");
  frame.setAttribute("tabindex", "-1");
  frame.setAttribute("referrerpolicy", "no-referrer");
  frame.title = "";
  frame.width = "0";
  frame.height = "0";
  frame.style.cssText =
    "position:absolute;width:0;height:0;border:0;visibility:hidden;pointer-events:none";
  frame.src = src;
  return frame;
}

/**
 * Puts the warm frame for `proxyUrl` in `doc`'s body, replacing one for another sandbox; nothing
 * when the same one is there.
 *
 * @returns the frame, or undefined when the URL is unusable.
 */
export function ensureWarmupFrame(doc: Document, proxyUrl: string): HTMLIFrameElement | undefined {
  const src = warmupUrlFor(proxyUrl);
  if (src === undefined) return undefined;
  const existing = doc.querySelector<HTMLIFrameElement>(`iframe[data-testid="${warmupTestId}"]`);
  if (existing !== null && existing.src === src) return existing;
  existing?.remove();
  const frame = createWarmupFrame(doc, src);
  doc.body.append(frame);
  return frame;
}

/**
 * Called when a card's proxy loads: remembers its sandbox for the next visit and keeps the warm
 * frame on it, so the processes stay alive after the card closes.
 *
 * @param proxyUrl - the card's `page.proxyUrl`.
 */
export function keepSandboxWarm(proxyUrl: string): void {
  if (typeof document === "undefined") return;
  try {
    localStorage.setItem(warmupStorageKey, proxyUrl);
  } catch {
    // Storage refused (private mode, quota): the warm frame still holds for this tab.
  }
  ensureWarmupFrame(document, proxyUrl);
}

/**
 * Once the page is idle, puts the warm frame on the sandbox the last visit's cards used. Nothing
 * when no card has opened in this browser yet.
 *
 * @returns a function that cancels a start still pending.
 */
export function startSandboxWarmup(): () => void {
  if (typeof window === "undefined") return () => undefined;
  const start = (): void => {
    let remembered: string | null;
    try {
      remembered = localStorage.getItem(warmupStorageKey);
    } catch {
      return;
    }
    if (remembered !== null) ensureWarmupFrame(document, remembered);
  };
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(start, { timeout: 3_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(start, 1_000);
  return () => window.clearTimeout(handle);
}
