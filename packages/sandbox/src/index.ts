/**
 * The sandbox in which MCP Apps views run, as both sides use it: its origins (one proxy origin,
 * one view origin per source), the Content-Security-Policy built from a view's declared domains,
 * the iframe `allow` and `sandbox` values, the proxy URL's parameters, its signature and the view's signed URL,
 * the proxy page and script, and the view's document with the script that locks its realm. It
 * imports only the protocol package (origin and loopback helpers) and nothing from Node or from
 * `server/`, so the browser bundle takes it whole (`entries.test.ts` walks its imports to keep it
 * so). What answers a sandbox origin's requests is `@mcp-chat-host/sandbox/server`.
 */
export * from "./csp/content-security-policy";
export * from "./csp/csp-source";
export * from "./csp/frame-ancestors";
export * from "./frame/allow-attribute";
export * from "./frame/sandbox-tokens";
export * from "./host-origin";
export * from "./origins/sandbox-origins";
export * from "./params/proxy-params";
export * from "./params/signed-proxy-url";
export { minimumSigningKeyBytes, type SigningKey } from "./params/signing-key";
export * from "./params/view-url";
export * from "./params/warm-page-params";
export * from "./proxy/proxy-page";
export * from "./proxy/proxy-script";
export * from "./proxy/sandbox-methods";
export * from "./rejection";
export * from "./resource-metadata";
export * from "./sandbox-error";
export * from "./view/parent-stand-in-source";
export * from "./view/realm-lockdown";
export * from "./view/view-page";
export * from "./view/view-script";
