// The small HTML pages and form bodies of the test providers' sign-in and consent steps.
import type { IncomingMessage } from "node:http";

/**
 * Escapes text for HTML.
 *
 * @param text - any text.
 * @returns the text with `&<>"'` as character references.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * A small page without outside resources (oidc-provider's default pages load web fonts).
 *
 * @param title - the page's title and heading (plain text).
 * @param body - the HTML after the heading (already escaped).
 * @returns the page's HTML.
 */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * Reads a small form body.
 *
 * @param request - the request whose body is `application/x-www-form-urlencoded`.
 * @returns its fields.
 * @throws Error when the body is over 16 KiB.
 */
export async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16_384) throw new Error("The form is too large.");
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
