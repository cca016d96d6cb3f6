import type { NextFunction, Request, RequestHandler, Response } from "express";
import { sessionBinding, wireError } from "@mcp-chat-host/protocol";
import type { AuthenticatedSession, Authenticator } from "./auth";
import { sendNoticePage, signInAdvice } from "./notice-pages";

const SESSION_KEY = "mcpChatHostSession";
const BOUND_KEY = "mcpChatHostSessionBound";

/** Whether a request is a browser loading a page (it gets an HTML answer, not JSON). */
function wantsPage(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const destination = request.get("sec-fetch-dest");
  if (destination !== undefined) return destination === "document";
  return request.accepts(["json", "html"]) === "html";
}

/**
 * Express middleware that lets only authenticated requests through. It puts the
 * {@link AuthenticatedSession} on the response (read it with {@link sessionOf}) and notes whether
 * the request proved its session binding (the `x-mch-session-binding` header; see
 * {@link boundOnly}). A request without credentials gets 401: a page saying how to sign in for a
 * page load, a JSON `{ ok: false, error }` otherwise; a broken auth function gets 500.
 *
 * @param authenticator - recognises the user.
 * @returns the middleware.
 */
export function requireAuth(authenticator: Authenticator): RequestHandler {
  return async (request: Request, response: Response, next: NextFunction): Promise<void> => {
    const result = await authenticator.authenticate(request, {
      binding: request.get(sessionBinding.header),
    });
    if (result.ok) {
      if (result.setCookie !== undefined) response.append("Set-Cookie", result.setCookie);
      response.locals[SESSION_KEY] = result.session;
      response.locals[BOUND_KEY] = result.bound;
      next();
      return;
    }
    if (result.failure === "failed") {
      response.status(500).json({
        ok: false,
        error: wireError(
          "internal",
          "Signing in failed on the server; try again, and tell the operator if it keeps failing.",
          { retryable: true },
        ),
      });
      return;
    }
    if (wantsPage(request) && authenticator.mode === "oidc") {
      // A person opening the host is sent to their organisation's sign-in.
      response.setHeader("Cache-Control", "no-store");
      response.redirect(303, "/auth/login");
      return;
    }
    if (wantsPage(request)) {
      sendNoticePage(response, 401, "Sign in to mcp-chat-host", signInAdvice[authenticator.mode]);
      return;
    }
    response.status(401).json({
      ok: false,
      error: wireError("unauthorized", `${signInAdvice[authenticator.mode].join(" ")}`),
    });
  };
}

/**
 * Runs `handler` (the layer's `routes`, where the person's data is answered) only for requests
 * that proved their session binding; every other request passes on to what follows (the web
 * app's files, which hold nothing of the person's). A stolen cookie alone therefore reaches no
 * route. Mount it after {@link requireAuth}.
 *
 * @param handler - the router to guard.
 * @returns the middleware.
 */
export function boundOnly(handler: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (response.locals[BOUND_KEY] === true) {
      void handler(request, response, next);
      return;
    }
    next();
  };
}

/**
 * The last handler of the layer: 404 for a request nothing answered, or 401 when a route might
 * have answered it had it carried its session binding (so an API client learns what is missing).
 *
 * @returns the handler.
 */
export function notFound(): RequestHandler {
  return (request: Request, response: Response): void => {
    if (response.locals[BOUND_KEY] === false && !wantsPage(request)) {
      response.status(401).json({
        ok: false,
        error: wireError(
          "unauthorized",
          `This request needs the page's session binding (the ${sessionBinding.header} header) as well as the cookie.`,
        ),
      });
      return;
    }
    response
      .status(404)
      .json({ ok: false, error: wireError("not_found", "There is nothing at this address.") });
  };
}

/**
 * The session of a request that passed {@link requireAuth} (for routes added to the layer's
 * `routes` router).
 *
 * @param response - the Express response of that request.
 * @returns the user and session id.
 * @throws {Error} when the request did not pass through the auth middleware (a wiring mistake).
 */
export function sessionOf(response: Response): AuthenticatedSession {
  const session = response.locals[SESSION_KEY] as AuthenticatedSession | undefined;
  if (session === undefined) {
    throw new Error(
      "sessionOf() called on a route that is not behind requireAuth; add the route to the layer's routes router.",
    );
  }
  return session;
}
