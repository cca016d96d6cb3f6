import { createHash } from "node:crypto";
import { sessionBinding } from "@mcp-chat-host/protocol";
import type { Response } from "express";
import { NOTICE_PAGE_CSP } from "./security-headers";

/** Escapes text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Sends a small self-contained HTML page (no scripts) with a title and paragraphs, for the
 * moments a person reaches the host without being signed in.
 *
 * @param response - the Express response.
 * @param status - the HTTP status.
 * @param title - the heading.
 * @param paragraphs - plain-text paragraphs (escaped here).
 * @param action - a link to what to do next (a path of this host), shown after them.
 */
export function sendNoticePage(
  response: Response,
  status: number,
  title: string,
  paragraphs: readonly string[],
  action?: { href: string; label: string },
  extra: { script?: string } = {},
): void {
  const body = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(action === undefined
      ? []
      : [`<p><a href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>`]),
  ].join("\n    ");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>${escapeHtml(title)}</title>${extra.script === undefined ? "" : `\n    <script src="${escapeHtml(extra.script)}"></script>`}
    <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; }</style>
  </head>
  <body>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </body>
</html>
`;
  response
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        extra.script === undefined ? NOTICE_PAGE_CSP : `${NOTICE_PAGE_CSP}; script-src 'self'`,
      "Cache-Control": "no-store",
    })
    .send(html);
}

/** Sentences that tell a person how to sign in, by auth mode. */
export const signInAdvice = {
  token: [
    "You are not signed in to this mcp-chat-host server.",
    "Open the sign-in URL the server printed in its terminal when it started (it contains ?token=). Each URL works once; for a new one, run `npx mcp-chat-host sign-in --data <data folder>` (or `npm run sign-in` in the repository) next to the running server, and open the URL it prints.",
  ],
  "trusted-header": [
    "You are not signed in to this mcp-chat-host server.",
    "It expects to be reached through your organisation's sign-in proxy; open it through that address.",
  ],
  oidc: [
    "You are not signed in to this mcp-chat-host server.",
    "Open its address again to sign in with your organisation's account.",
  ],
  function: [
    "You are not signed in to this mcp-chat-host server.",
    "Sign in the way your operator set up, then reload.",
  ],
} as const;

// The sign-in page's only script: it keeps the binding in this origin's storage (localStorage,
// so a browser restart keeps it as it keeps the cookie; sessionStorage when localStorage is
// refused) and replaces itself with the app, so the back button never returns here.
const SIGN_IN_SCRIPT = `(function () {
  var meta = document.querySelector('meta[name="${sessionBinding.storageKey}"]');
  var binding = meta === null ? "" : meta.getAttribute("content") || "";
  try {
    window.localStorage.setItem("${sessionBinding.storageKey}", binding);
  } catch (refused) {
    try {
      window.sessionStorage.setItem("${sessionBinding.storageKey}", binding);
    } catch (alsoRefused) {
      document.getElementById("storage-refused").hidden = false;
      return;
    }
  }
  window.location.replace("/");
})();`;

const SIGN_IN_SCRIPT_HASH = createHash("sha256").update(SIGN_IN_SCRIPT, "utf8").digest("base64");

/** The sign-in page's policy: no sources at all but its one script, allowed by its hash. */
const SIGN_IN_PAGE_CSP = `default-src 'none'; script-src 'sha256-${SIGN_IN_SCRIPT_HASH}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * Sends the page that ends a token sign-in: it hands the session binding to the host page's own
 * origin (see `sessionBinding` in the protocol) and goes on to `/`. The binding travels in this
 * one `no-store` response body, never in a URL, a cookie or a header another port would see.
 *
 * @param response - the Express response (the session cookie is already set on it).
 * @param binding - the new session's binding.
 */
export function sendSignInPage(response: Response, binding: string): void {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="${sessionBinding.storageKey}" content="${escapeHtml(binding)}">
    <title>Signing in to mcp-chat-host</title>
    <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; }</style>
  </head>
  <body>
    <h1>Signing in…</h1>
    <noscript><p>Signing in needs JavaScript: turn it on for this address and open a new sign-in URL.</p></noscript>
    <p id="storage-refused" hidden>This browser refused to keep site data for this address, so the sign-in cannot be kept. Allow site data for it, then open a new sign-in URL.</p>
    <script>${SIGN_IN_SCRIPT}</script>
  </body>
</html>
`;
  response
    .status(200)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": SIGN_IN_PAGE_CSP,
      "Cache-Control": "no-store",
    })
    .send(html);
}
