// Local copies of the two MCP Apps metadata shapes this package reads. They match
// `McpUiResourceCsp` and `McpUiResourcePermissions` of @modelcontextprotocol/ext-apps 2.0.4
// structurally, so values of those types can be passed in; the package stays free of
// dependencies so that the server and the browser can both import it.

/** The `_meta.ui.csp` a view's resource declares: origins it needs, per kind of request. */
export interface McpUiResourceCsp {
  /** Origins for fetch/XHR/WebSocket; becomes `connect-src`. */
  connectDomains?: string[];
  /** Origins for scripts, styles, images, fonts and media. */
  resourceDomains?: string[];
  /** Origins for nested frames; becomes `frame-src`. */
  frameDomains?: string[];
  /** Origins allowed in `<base href>`; becomes `base-uri`. */
  baseUriDomains?: string[];
}

/** The `_meta.ui.permissions` a view's resource requests (each present key is a request). */
export interface McpUiResourcePermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

/** The four list fields of {@link McpUiResourceCsp}, in the order the header uses them. */
export const cspDomainFields = [
  "connectDomains",
  "resourceDomains",
  "frameDomains",
  "baseUriDomains",
] as const;

/** One of {@link cspDomainFields}. */
export type CspDomainField = (typeof cspDomainFields)[number];

/**
 * Each permission a view may request and the Permissions Policy feature it maps to, in the order
 * the `allow` attribute lists them (the order the ext-apps SDK uses).
 */
export const permissionFeatures = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
} as const;

/** One of the keys of {@link McpUiResourcePermissions}. */
export type PermissionName = keyof typeof permissionFeatures;
