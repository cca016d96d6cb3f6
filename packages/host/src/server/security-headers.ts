import type { NextFunction, Request, Response } from "express";

/** What the host page's Content-Security-Policy allows beyond its own origin. */
export interface HostPageCspOptions {
  /** Sources the page may frame: the sandbox origins (`http://127.0.0.1:*`, `https://*.sandbox.example.com`). */
  frameSources: readonly string[];
  /** The socket's origin as the browser sees it (`ws://127.0.0.1:8787`). */
  socketOrigin: string;
}

/**
 * The Content-Security-Policy of the host page: only its own scripts and styles, frames only on
 * the sandbox origins, the socket back to itself, no plugins, no `<base>`, never framed itself.
 * Images also allow `data:` and `blob:` (icons, downloads); other hosts' images stay blocked, so
 * markdown from a model or app cannot leak data through an image URL.
 *
 * @param options - the sandbox frame sources and the socket origin.
 * @returns the header value.
 */
export function hostPageCsp(options: HostPageCspOptions): string {
  const frameSources = options.frameSources.length > 0 ? options.frameSources.join(" ") : "'none'";
  return [
    "default-src 'self'",
    `frame-src ${frameSources}`,
    `connect-src 'self' ${options.socketOrigin}`,
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of the small server-made pages (sign-in notices): no scripts at all. */
export const NOTICE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Express middleware that sets the headers every response of the host gets: no MIME sniffing,
 * referrers only to the same origin, never framed.
 */
export function baseSecurityHeaders(
  _request: Request,
  response: Response,
  next: NextFunction,
): void {
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "same-origin");
  response.setHeader("X-Frame-Options", "DENY");
  next();
}
