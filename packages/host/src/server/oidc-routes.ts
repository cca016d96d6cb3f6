import { createHash, randomBytes } from "node:crypto";
import { sessionBinding, wireError } from "@mcp-chat-host/protocol";
import { parseCookie, stringifySetCookie } from "cookie";
import express, { type Request, type Response, type Router } from "express";
import type { Logger } from "pino";
import type { Authenticator } from "./auth";
import { admitOidcPerson } from "./oidc-admission";
import type { CheckedOidcOptions } from "./oidc-options";
import { OidcFailure, type OidcFlowSecrets, OidcRelyingParty } from "./oidc-relying-party";
import { sendNoticePage, sendSignInPage } from "./notice-pages";
import type { SessionCookies } from "./session-cookie";

/** What {@link SharedSignInStates.takeSignInState} found (the store's answer). */
export type SignInStateOutcome =
  { outcome: "accepted"; data: string } | { outcome: "already-used" } | { outcome: "unknown" };

/**
 * Where sign-ins in progress are kept (the store's sign-in states): any node that receives the
 * provider's answer can finish a flow another node started, and a `state` is taken once.
 */
export interface SharedSignInStates {
  /** Keeps a state's digest and data until `expiresAt` (ms since the epoch). */
  saveSignInState(digest: string, data: string, expiresAt: number): Promise<void>;
  /** Takes a state's data atomically across every node. */
  takeSignInState(digest: string, now: number): Promise<SignInStateOutcome>;
}

/** What the OpenID Connect routes need. */
export interface OidcRoutesOptions {
  options: CheckedOidcOptions;
  authenticator: Authenticator;
  cookies: SessionCookies;
  /** The shared store of sign-in states; null until the store is open. */
  states: () => SharedSignInStates | null;
  /** The host's public origin (`https://chat.example.com`), for the redirect URI. */
  origin: () => string;
  /** Ends every socket of a browser session, on every node. */
  endSession: (sessionId: string) => void;
  logger: Logger;
  now: () => number;
}

/** The callback path, registered at the provider as `<public origin>/auth/callback`. */
const OIDC_CALLBACK_PATH = "/auth/callback";
const SIGNED_OUT_PATH = "/auth/signed-out";
const FLOW_LABEL = "oidc-flow.v1";
const SIGN_IN_AGAIN = { href: "/auth/login", label: "Sign in again" };

/** The digest a state is kept under (the state itself never reaches the database). */
function stateDigest(state: string): string {
  return createHash("sha256").update(state, "utf8").digest("hex");
}

/** The name of the cookie that ties a flow to the browser that started it. */
function flowCookieName(digest: string): string {
  return `mch_oidc_${digest.slice(0, 16)}`;
}

/** Reads the kept secrets; null when the row holds something else. */
function flowSecrets(data: string): OidcFlowSecrets | null {
  try {
    const parsed = JSON.parse(data) as Partial<OidcFlowSecrets>;
    return typeof parsed.nonce === "string" && typeof parsed.codeVerifier === "string"
      ? { nonce: parsed.nonce, codeVerifier: parsed.codeVerifier }
      : null;
  } catch {
    return null;
  }
}

/** An OAuth error code is safe to show when it is the spec's token shape. */
function shownErrorCode(code: string | undefined): string | undefined {
  return code !== undefined && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
}

/** Tells the person, in the notice style, why the provider step failed. */
function sendFailurePage(response: Response, failure: OidcFailure): void {
  if (failure.kind === "unreachable") {
    sendNoticePage(
      response,
      503,
      "The sign-in provider cannot be reached",
      [
        "This host could not reach your organisation's sign-in provider, so you are not signed in.",
        "Try again in a moment; if it keeps failing, tell the operator of this host.",
      ],
      SIGN_IN_AGAIN,
    );
    return;
  }
  if (failure.kind === "refused") {
    const code = shownErrorCode(failure.providerError);
    sendNoticePage(
      response,
      401,
      "The sign-in provider refused",
      [
        `Your organisation's sign-in provider did not sign you in${code === undefined ? "" : ` (${code})`}.`,
        "Start again; if it keeps refusing, ask the operator of this host.",
      ],
      SIGN_IN_AGAIN,
    );
    return;
  }
  sendNoticePage(
    response,
    401,
    "The sign-in could not be checked",
    [
      "The provider's answer did not pass this host's checks (it may have been meant for another application, or be too old), so you are not signed in.",
      "Start again; if it keeps happening, tell the operator of this host (the server log says which check failed).",
    ],
    SIGN_IN_AGAIN,
  );
}

/**
 * The routes of the OpenID Connect mode, mounted before the auth check:
 * - `GET /auth/login` starts the authorization code flow (`?another=1`: with `prompt=login`, for
 *   the refusal page's "Sign in with another account"): a random `state`, `nonce` and PKCE
 *   verifier, kept in the shared store under the state's digest for the sign-in timeout, and a
 *   cookie (HttpOnly, proven with the session key) that ties the flow to this browser; then a
 *   redirect to the provider.
 * - `GET /auth/callback` takes the state once (an expired, replayed or unknown one gets a page
 *   saying to start again), checks the browser's flow cookie, lets openid-client exchange the code
 *   and validate the ID token, applies the allowed domains and groups, and signs the person in
 *   with the session cookie and binding of the token mode (the same sign-in page).
 * - `POST /auth/logout` (the layer's Origin check makes it same-origin) clears the cookie, ends
 *   the browser session's sockets on every node and answers where to go next: the provider's
 *   end-session endpoint when it has one, else `/auth/signed-out`.
 * - `GET /auth/signed-out` says so.
 *
 * Nothing of the library's errors reaches the person; the log gets the detail, never a token.
 *
 * @param settings - see {@link OidcRoutesOptions}.
 * @returns the router.
 */
export function oidcRoutes(settings: OidcRoutesOptions): Router {
  const { options, authenticator, cookies, logger, now } = settings;
  const relyingParty = new OidcRelyingParty(options, logger);
  const router = express.Router();
  const redirectUri = (): string => `${settings.origin()}${OIDC_CALLBACK_PATH}`;

  const unavailable = (response: Response, error: unknown): void => {
    logger.error({ err: error }, "Could not keep or check an OpenID sign-in in the store.");
    sendNoticePage(
      response,
      503,
      "Sign-in is not available right now",
      ["The server could not reach its database to keep this sign-in.", "Try again in a moment."],
      SIGN_IN_AGAIN,
    );
  };

  router.get("/auth/login", async (request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    const states = settings.states();
    if (states === null) {
      sendNoticePage(response, 503, "The server is starting", ["Try again in a moment."]);
      return;
    }
    const state = randomBytes(32).toString("base64url");
    const digest = stateDigest(state);
    let started;
    try {
      started = await relyingParty.start(redirectUri(), state, request.query["another"] === "1");
    } catch (error) {
      const failure =
        error instanceof OidcFailure ? error : new OidcFailure("unreachable", String(error));
      logger.warn(
        { kind: failure.kind, detail: failure.message },
        "Could not start an OpenID sign-in.",
      );
      sendFailurePage(response, failure);
      return;
    }
    try {
      await states.saveSignInState(
        digest,
        JSON.stringify(started.secrets),
        now() + options.signInTimeoutMs,
      );
    } catch (error) {
      unavailable(response, error);
      return;
    }
    response.append(
      "Set-Cookie",
      stringifySetCookie({
        name: flowCookieName(digest),
        value: cookies.proofOf(FLOW_LABEL, state),
        httpOnly: true,
        // Lax: the provider sends the browser back with a top-level GET from its own site.
        sameSite: "lax",
        path: OIDC_CALLBACK_PATH,
        secure: cookies.isSecure,
        maxAge: Math.ceil(options.signInTimeoutMs / 1_000),
      }),
    );
    response.redirect(303, started.url.href);
  });

  router.get(OIDC_CALLBACK_PATH, async (request: Request, response: Response) => {
    // The code must not travel onward, whatever happens next.
    response.setHeader("Referrer-Policy", "no-referrer");
    response.setHeader("Cache-Control", "no-store");
    const state = typeof request.query["state"] === "string" ? request.query["state"] : "";
    const states = settings.states();
    if (states === null) {
      sendNoticePage(response, 503, "The server is starting", ["Try again in a moment."]);
      return;
    }
    const digest = stateDigest(state);
    let taken;
    try {
      taken =
        state === "" || state.length > 200
          ? ({ outcome: "unknown" } as const)
          : await states.takeSignInState(digest, now());
    } catch (error) {
      unavailable(response, error);
      return;
    }
    const secrets = taken.outcome === "accepted" ? flowSecrets(taken.data) : null;
    if (secrets === null) {
      logger.warn({ outcome: taken.outcome }, "Refused an OpenID sign-in answer: its state.");
      sendNoticePage(
        response,
        400,
        "This sign-in link has expired or was already used",
        [
          "This sign-in link has expired or was already used; start again.",
          `A sign-in must be finished within ${Math.round(options.signInTimeoutMs / 60_000)} minutes of starting it, and each answer from the provider works once.`,
        ],
        SIGN_IN_AGAIN,
      );
      return;
    }
    const flowCookie = parseCookie(request.headers.cookie ?? "")[flowCookieName(digest)];
    response.append(
      "Set-Cookie",
      stringifySetCookie({
        name: flowCookieName(digest),
        value: "",
        httpOnly: true,
        sameSite: "lax",
        path: OIDC_CALLBACK_PATH,
        secure: cookies.isSecure,
        maxAge: 0,
      }),
    );
    if (flowCookie !== cookies.proofOf(FLOW_LABEL, state)) {
      logger.warn("Refused an OpenID sign-in answer that reached another browser than its start.");
      sendNoticePage(
        response,
        400,
        "This sign-in was started in another browser",
        [
          "The provider's answer reached a browser that did not start this sign-in (or its cookies were cleared), so it was not used; start again here.",
        ],
        SIGN_IN_AGAIN,
      );
      return;
    }
    const currentUrl = new URL(redirectUri());
    currentUrl.search = new URL(request.originalUrl, "http://callback.invalid").search;
    let claims;
    try {
      claims = await relyingParty.finish(currentUrl, state, secrets);
    } catch (error) {
      const failure =
        error instanceof OidcFailure ? error : new OidcFailure("unreachable", String(error));
      logger.warn(
        { kind: failure.kind, providerError: failure.providerError, detail: failure.message },
        "An OpenID sign-in failed.",
      );
      sendFailurePage(response, failure);
      return;
    }
    const admission = admitOidcPerson(claims, options);
    if (!admission.admitted) {
      logger.warn(
        { rule: admission.rule, issuer: claims.iss },
        "Refused an OpenID sign-in: the account is not allowed here.",
      );
      sendNoticePage(response, 403, "This account is not allowed here", admission.paragraphs, {
        href: "/auth/login?another=1",
        label: "Sign in with another account",
      });
      return;
    }
    const { sessionId, setCookie, binding } = authenticator.issueSession(admission.user);
    logger.info({ sessionId, userId: admission.user.id }, "Signed in with OpenID Connect.");
    response.append("Set-Cookie", setCookie);
    sendSignInPage(response, binding);
  });

  router.post("/auth/logout", async (request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    const found = await authenticator.authenticate(request, {
      binding: request.get(sessionBinding.header),
    });
    response.append("Set-Cookie", cookies.clear());
    if (found.ok) {
      settings.endSession(found.session.sessionId);
      logger.info(
        { sessionId: found.session.sessionId, userId: found.session.user.id },
        "Signed out.",
      );
    }
    const signedOut = `${settings.origin()}${SIGNED_OUT_PATH}`;
    const next = (await relyingParty.endSessionUrl(signedOut)) ?? new URL(signedOut);
    response.json({ ok: true, value: { next: next.href } });
  });

  router.get(SIGNED_OUT_PATH, (_request: Request, response: Response) => {
    sendNoticePage(
      response,
      200,
      "You are signed out",
      ["You are signed out of this mcp-chat-host server."],
      SIGN_IN_AGAIN,
    );
  });

  // Anything else under /auth/ is not a page of this mode.
  router.all("/auth/logout", (_request: Request, response: Response) => {
    response.status(405).json({
      ok: false,
      error: wireError("bad_request", "Sign out with a POST from the host page."),
    });
  });
  return router;
}
