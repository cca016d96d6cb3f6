import { httpOrigin } from "@mcp-chat-host/protocol";
import { proxyOriginMetaName } from "../proxy/sandbox-methods";
import { SandboxConfigurationError } from "../sandbox-error";
import { viewLoaderScript } from "./view-script";

/**
 * Renders the document served at a view's signed URL: only the loader (inline; the view's CSP
 * allows inline scripts), which locks the realm and then writes the view's own HTML into this
 * document. The HTML itself never travels through the server here; it arrives from the proxy.
 *
 * @param options - the proxy's origin, the only sender the loader takes the HTML from.
 * @returns the HTML document.
 * @throws {SandboxConfigurationError} `invalid_origin_template` when the proxy origin is not an
 *   http(s) origin.
 */
export function renderViewPage(options: { proxyOrigin: string }): string {
  const proxyOrigin = httpOrigin(options.proxyOrigin);
  if (proxyOrigin === undefined) {
    throw new SandboxConfigurationError(
      "invalid_origin_template",
      `The proxy origin "${options.proxyOrigin}" is not an http(s) origin.`,
    );
  }
  // The script text holds no "</" (it is ours), so it cannot end its own element early.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="${proxyOriginMetaName}" content="${proxyOrigin}">
<title>App view</title>
<script>${viewLoaderScript}</script>
</head>
<body></body>
</html>
`;
}
