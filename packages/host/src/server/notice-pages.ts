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
 */
export function sendNoticePage(
  response: Response,
  status: number,
  title: string,
  paragraphs: readonly string[],
): void {
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n    ");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>${escapeHtml(title)}</title>
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
      "Content-Security-Policy": NOTICE_PAGE_CSP,
      "Cache-Control": "no-store",
    })
    .send(html);
}

/** Sentences that tell a person how to sign in, by auth mode. */
export const signInAdvice = {
  token: [
    "You are not signed in to this mcp-chat-host server.",
    "Open the sign-in URL the server printed in its terminal when it started (it contains ?token=). Each URL works once; restarting the server prints a new one, and the operator can mint one with signInUrl().",
  ],
  "trusted-header": [
    "You are not signed in to this mcp-chat-host server.",
    "It expects to be reached through your organisation's sign-in proxy; open it through that address.",
  ],
  function: [
    "You are not signed in to this mcp-chat-host server.",
    "Sign in the way your operator set up, then reload.",
  ],
} as const;
