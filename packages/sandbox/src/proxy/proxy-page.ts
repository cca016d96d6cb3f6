import { normalizeHostOrigin } from "../host-origin";
import { proxyScriptPath } from "../params/proxy-params";
import { frameAllowMetaName, hostOriginMetaName } from "./sandbox-methods";

/** Options of {@link renderProxyPage}. */
export interface ProxyPageOptions {
  /** The chat page's origin: the only parent the proxy serves and the only one it posts to. */
  hostOrigin: string;
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
 * Renders the proxy page served at `/proxy` on a sandbox origin. It has no inline script (its
 * logic is `/proxy.js`); its two settings travel in `<meta>` tags. The page is transparent and
 * the view's iframe fills it.
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
<meta name="${frameAllowMetaName}" content="${allow}">
<title>App sandbox</title>
<style>
html, body { margin: 0; padding: 0; width: 100%; height: 100%; background: transparent; overflow: hidden; }
iframe { display: block; width: 100%; height: 100%; border: 0; background: transparent; }
</style>
</head>
<body>
<script src="${proxyScriptPath}"></script>
</body>
</html>
`;
}
