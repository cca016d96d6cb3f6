// Checks the sandbox placement the server sent before the page loads anything into it.

/**
 * Checks the sandbox the server assigned before anything is loaded into it: the proxy URL must be
 * http(s) on the card's sandbox origin, and that origin must not be the chat page's own (a view
 * with `allow-same-origin` on the page's origin could read the page).
 *
 * @returns null when it is sound, else the sentence to show in place of the view.
 */
export function sandboxProblem(
  page: { proxyUrl: string; sandboxOrigin: string },
  pageOrigin: string = typeof location === "undefined" ? "" : location.origin,
): string | null {
  let proxy: URL;
  try {
    proxy = new URL(page.proxyUrl);
  } catch {
    return "The app's sandbox address is not a URL; ask the operator to check the sandbox settings.";
  }
  if (proxy.protocol !== "http:" && proxy.protocol !== "https:") {
    return "The app's sandbox address is not http(s); ask the operator to check the sandbox settings.";
  }
  let sandboxOrigin: string;
  try {
    sandboxOrigin = new URL(page.sandboxOrigin).origin;
  } catch {
    return "The app's sandbox origin is not a URL; ask the operator to check the sandbox settings.";
  }
  if (proxy.origin !== sandboxOrigin) {
    return "The app's sandbox address is not on its sandbox origin; ask the operator to check the sandbox settings.";
  }
  if (proxy.origin === pageOrigin) {
    return "The app's sandbox has the chat page's own origin, which would let it read the page; ask the operator to configure a separate sandbox origin.";
  }
  return null;
}
