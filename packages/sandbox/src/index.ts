/**
 * The sandbox in which MCP Apps views run: the Content-Security-Policy built from a view's
 * declared domains, the iframe `allow` and `sandbox` values, the proxy URL's parameters, and the
 * proxy page and script a sandbox origin serves. Imports nothing of ours and nothing from Node,
 * so the server and the browser can both use it.
 */
export * from "./csp/content-security-policy";
export * from "./csp/csp-source";
export * from "./frame/allow-attribute";
export * from "./frame/sandbox-tokens";
export * from "./host-origin";
export * from "./params/proxy-params";
export * from "./proxy/proxy-page";
export * from "./proxy/proxy-script";
export * from "./proxy/sandbox-methods";
export * from "./rejection";
export * from "./resource-metadata";
export * from "./sandbox-error";
export * from "./server/sandbox-request";
