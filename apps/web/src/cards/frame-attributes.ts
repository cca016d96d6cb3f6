// The fixed attributes of a card's outer iframe (the sandbox proxy page).

/**
 * The outer iframe's `sandbox`: the sandbox package's one definition, every token the view's
 * inner iframe may be given (an inner frame never has more than its parent). The proxy decides
 * what the view actually gets; top navigation is never among them.
 */
export { outerFrameSandbox } from "@mcp-chat-host/sandbox";

/**
 * The outer iframe's `referrerpolicy`. The proxy checks who embeds it with
 * `location.ancestorOrigins` and, where a browser lacks that, with `document.referrer`; `origin`
 * sends exactly the chat page's origin (never its path or hash, which holds the conversation id)
 * even to the sandbox's other origin.
 */
export const outerFrameReferrerPolicy = "origin";
