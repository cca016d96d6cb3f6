// Which `sandbox` tokens the view's (inner) iframe may have. The host page sends its wish in
// `sandbox-resource-ready`; the proxy keeps only tokens on this list. The outer iframe must carry
// at least every token the inner one may get: an inner frame cannot have more than its parent.

/**
 * Every token the inner iframe may get, in the order attributes list them. Never any
 * `allow-top-navigation*` (a view must not replace the chat page), nor pointer lock, presentation,
 * orientation lock or storage access.
 */
export const sandboxTokenAllowList = [
  "allow-scripts",
  "allow-same-origin",
  "allow-forms",
  "allow-popups",
  "allow-popups-to-escape-sandbox",
  "allow-modals",
  "allow-downloads",
] as const;

/** One of {@link sandboxTokenAllowList}. */
export type SandboxToken = (typeof sandboxTokenAllowList)[number];

/**
 * The inner iframe's tokens when the host asks for none: scripts, forms, and its own origin (the
 * card's sandbox origin, so the view keeps `localStorage`). No popups: links go through
 * `ui/open-link`, which the host opens with `noopener`.
 */
export const defaultInnerSandbox = "allow-scripts allow-same-origin allow-forms";

/** The `sandbox` attribute for the host's outer iframe (the proxy page): the whole allow-list. */
export const outerFrameSandbox = sandboxTokenAllowList.join(" ");

/**
 * Keeps the requested tokens that are on {@link sandboxTokenAllowList}.
 *
 * Popups come as a pair: `allow-popups` is granted only together with
 * `allow-popups-to-escape-sandbox` (a popup opened from a view is an ordinary page, such as a
 * sign-in or documentation; one that inherited the view's sandbox would be broken), so asking for
 * `allow-popups` grants both, and `allow-popups-to-escape-sandbox` alone is dropped (it means
 * nothing without popups). Tokens are matched case-insensitively, as browsers do; duplicates and
 * unknown tokens are dropped.
 *
 * @param requested - the space-separated tokens the host asked for; undefined means
 *   {@link defaultInnerSandbox}, `""` means no tokens (fully sandboxed: no scripts).
 * @returns the granted tokens, space-separated, in allow-list order; never throws.
 */
export function intersectSandboxTokens(requested?: string): string {
  const asked = new Set(
    (typeof requested === "string" ? requested : defaultInnerSandbox)
      .toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .filter((token) => token !== ""),
  );
  const popups = asked.has("allow-popups");
  return sandboxTokenAllowList
    .filter((token) => {
      if (token === "allow-popups-to-escape-sandbox") return popups;
      return asked.has(token);
    })
    .join(" ");
}
