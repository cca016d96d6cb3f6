import type { NextFunction, Request, Response } from "express";

/** What the host page's Content-Security-Policy allows beyond its own origin. */
export interface HostPageCspOptions {
  /**
   * What the page may frame: exactly the sandbox proxy's origin (`http://proxy.localhost:41234`,
   * `https://proxy.sandbox.example.com`), never a pattern, so no frame of the page can be sent
   * to any other address (another local port included).
   */
  frameSources: readonly string[];
  /** The socket's origin as the browser sees it (`ws://127.0.0.1:8787`). */
  socketOrigin: string;
}

/**
 * The Content-Security-Policy of the host page: only its own scripts and styles, frames only on
 * the sandbox proxy's exact origin (`frame-src` also decides where a frame may be navigated, by
 * whoever navigates it), the socket back to itself, no plugins, no `<base>`, never framed itself.
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
