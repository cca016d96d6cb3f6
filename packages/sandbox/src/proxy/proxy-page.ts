import { frameAncestorsValue } from "../csp/frame-ancestors";
import { normalizeHostOrigin } from "../host-origin";
import { proxyScript } from "./proxy-script";
import { frameAllowMetaName, hostOriginMetaName, viewUrlMetaName } from "./sandbox-methods";

/** Options of {@link renderProxyPage}. */
export interface ProxyPageOptions {
  /** The chat page's origin: the only parent the proxy serves and the only one it posts to. */
  hostOrigin: string;
  /** The view's signed URL on its own origin (see `signViewUrl`). */
  viewUrl: string;
  /** The inner iframe's `allow` value (from `buildAllowAttribute`); empty or absent for none. */
  allow?: string;
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * The proxy page's own Content-Security-Policy: its one inline script by its hash (see
 * `proxyScriptHash`; nothing else, not even a script of its own origin), its inline style,
 * and exactly one frame, the view's document on the view's origin. Nothing else loads, connects,
 * submits or navigates; only the host page may embed it. `frame-src` also governs where the view
 * may navigate its own frame: only back to its own page.
 *
 * @param hostOrigin - the chat page's origin.
 * @param viewUrl - the view's URL (only its origin and path count).
 * @param scriptHash - the proxy script's base64 SHA-256 (`proxyScriptHash()`).
 * @returns the header value.
 */
export function proxyPageCsp(hostOrigin: string, viewUrl: string, scriptHash: string): string {
  const view = new URL(viewUrl);
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    `frame-src ${view.origin}${view.pathname}`,
    "connect-src 'none'",
    "img-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestorsValue([normalizeHostOrigin(hostOrigin)])}`,
  ].join("; ");
}

/**
 * Renders the proxy page served at `/proxy` on the sandbox's proxy origin. Its logic is the proxy
 * script, inline (its CSP admits that script by its hash only), so the page runs as soon as it
 * has arrived, without a second request; its settings travel in `<meta>` tags. The page is
 * transparent and the view's iframe fills it.
 *
 * @returns the HTML document.
 * @throws {SandboxConfigurationError} when `hostOrigin` is not an http(s) origin.
 */
export function renderProxyPage(options: ProxyPageOptions): string {
  const hostOrigin = escapeAttribute(normalizeHostOrigin(options.hostOrigin));
  const allow = escapeAttribute(options.allow ?? "");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<meta name="${hostOriginMetaName}" content="${hostOrigin}">
<meta name="${viewUrlMetaName}" content="${escapeAttribute(options.viewUrl)}">
<meta name="${frameAllowMetaName}" content="${allow}">
<title>App sandbox</title>
<style>
html, body { margin: 0; padding: 0; width: 100%; height: 100%; background: transparent; overflow: hidden; }
iframe { display: block; width: 100%; height: 100%; border: 0; background: transparent; }
</style>
</head>
<body>
<script>${proxyScript}</script>
</body>
</html>
`;
}
