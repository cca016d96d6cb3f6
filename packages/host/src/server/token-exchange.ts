import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { Authenticator } from "./auth";
import { sendNoticePage, sendSignInPage } from "./notice-pages";
import type { OneTimeTokens } from "./one-time-tokens";

/** What the token exchange needs. */
export interface TokenExchangeOptions {
  tokens: OneTimeTokens;
  authenticator: Authenticator;
  logger: Logger;
}

const NEW_URL_ADVICE =
  "Each sign-in URL works once. To get a new one, run `npx mcp-chat-host sign-in --data <data folder>` (or `npm run sign-in` in the repository) next to the running server, and open the URL it prints.";

/**
 * Express handler of `GET /?token=…` and `GET /auth?token=…`: spends the one-time token, sets the
 * session cookie and answers the sign-in page, which keeps the session's binding in the host
 * origin's storage and replaces itself with `/`, so the token leaves the address bar. A
 * spent or unknown token gets a page saying how to get a new URL, unless the browser is already
 * signed in (a back button to the old URL), which just goes to `/`. `GET /` without a token passes
 * on to the rest of the app.
 *
 * @param options - the token store, the authenticator (cookie issuer) and the logger.
 * @returns the handler.
 */
export function tokenExchange(options: TokenExchangeOptions): RequestHandler {
  const { tokens, authenticator, logger } = options;
  return async (request: Request, response: Response, next: NextFunction): Promise<void> => {
    // Only a real page load spends a token: a HEAD from a link previewer must not burn it.
    if (request.method !== "GET") {
      next();
      return;
    }
    const token = request.query.token;
    if (typeof token !== "string" || token.length === 0) {
      if (request.path === "/" && token === undefined) {
        next();
        return;
      }
      sendNoticePage(response, 400, "Sign-in link incomplete", [
        "This address needs a token (…/?token=…).",
        "Open the full sign-in URL the server printed in its terminal.",
      ]);
      return;
    }
    // The token must not travel onward, whatever happens next.
    response.setHeader("Referrer-Policy", "no-referrer");
    response.setHeader("Cache-Control", "no-store");
    let check;
    try {
      check = await tokens.consume(token);
    } catch (error) {
      logger.error({ err: error }, "Could not check a sign-in token.");
      sendNoticePage(response, 503, "Sign-in is not available right now", [
        "The server could not reach its database to check this link; the link was not used.",
        "Try the same link again in a moment.",
      ]);
      return;
    }
    if (check === "accepted") {
      const { sessionId, setCookie, binding } = authenticator.issueOperatorSession();
      logger.info({ sessionId }, "Signed in with a one-time token.");
      response.setHeader("Set-Cookie", setCookie);
      sendSignInPage(response, binding);
      return;
    }
    const existing = await authenticator.authenticate(request);
    if (existing.ok) {
      response.redirect(303, "/");
      return;
    }
    logger.warn({ check }, "Refused a sign-in token.");
    if (check === "already-used") {
      sendNoticePage(response, 401, "This sign-in link was already used", [NEW_URL_ADVICE]);
    } else {
      sendNoticePage(response, 401, "This sign-in link is not valid", [
        "It may come from an earlier run of the server, or be mistyped.",
        NEW_URL_ADVICE,
      ]);
    }
  };
}
