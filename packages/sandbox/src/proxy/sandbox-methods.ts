// The MCP Apps methods that belong to the host <-> proxy leg only (spec "Sandbox proxy"). Same
// strings as the ext-apps SDK's SANDBOX_*_METHOD constants.

/** Prefix of every method the proxy consumes and never passes between host and view. */
export const sandboxMethodPrefix = "ui/notifications/sandbox-";

/** Proxy -> host: the proxy is listening and can take the view's HTML. */
export const sandboxProxyReadyMethod = "ui/notifications/sandbox-proxy-ready";

/** Host -> proxy: `{ html, sandbox?, csp?, permissions? }`, the view to load. */
export const sandboxResourceReadyMethod = "ui/notifications/sandbox-resource-ready";

/** `<meta name>` the proxy page uses to tell its script the host's origin. */
export const hostOriginMetaName = "mcp-host-origin";

/** `<meta name>` the proxy page uses to tell its script the inner iframe's `allow` value. */
export const frameAllowMetaName = "mcp-frame-allow";

/** `<meta name>` the proxy page uses to tell its script the view's signed URL. */
export const viewUrlMetaName = "mcp-view-url";

/** `<meta name>` the view page uses to tell its loader the proxy's origin. */
export const proxyOriginMetaName = "mcp-proxy-origin";

/**
 * View loader -> proxy: the view's realm is locked and listening; send the page. It never leaves
 * the sandbox (the proxy consumes it, and forwards no `sandbox-*` method from the view).
 */
export const sandboxViewReadyMethod = "ui/notifications/sandbox-view-ready";

/** Proxy -> view loader: `{ html }`, the view's page, sent once. */
export const sandboxViewHtmlMethod = "ui/notifications/sandbox-view-html";
