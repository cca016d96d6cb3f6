/**
 * The sandbox's server side: `handleSandboxRequest`, what every sandbox origin answers (the proxy
 * page and script, the view's document at its signed URL, the warm document), as plain data for
 * any HTTP stack. Only the server imports it; the browser's entry is `@mcp-chat-host/sandbox`.
 */
export * from "./server/sandbox-request";
export * from "./server/warm-page";
