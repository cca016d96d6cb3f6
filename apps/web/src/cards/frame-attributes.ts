// The fixed attributes of a card's outer iframe (the sandbox proxy page).

/**
 * The outer iframe's `sandbox`: scripts and its own (sandbox) origin, as the spec requires of the
 * proxy, and forms. The view's inner iframe cannot get more than this; the host asks for the
 * proxy's default inner tokens (the same three), so popups, modals, downloads and top navigation
 * stay off. Links and downloads go through `ui/open-link` and `ui/download-file` instead.
 */
export const outerFrameSandbox = "allow-scripts allow-same-origin allow-forms";

/**
 * The outer iframe's `referrerpolicy`. The proxy checks who embeds it with
 * `location.ancestorOrigins` and, where a browser lacks that, with `document.referrer`; `origin`
 * sends exactly the chat page's origin (never its path or hash, which holds the conversation id)
 * even to the other sandbox origin.
 */
export const outerFrameReferrerPolicy = "origin";
