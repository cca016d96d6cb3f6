// The HTTP side of signing people in to remote MCP servers: the popup's first page
// (`/oauth/start/<flow>`: binds the flow to this browser with a cookie, then sends the person to
// the authorization server), the callback (`/oauth/callback`: only the browser that started the
// flow finishes it; then the popup closes itself) and the host's Client ID Metadata Document.
// None of these needs the person's session cookie: the flow's state, kept server-side, says whose
// sign-in it is.
import { parseCookie, stringifySetCookie } from "cookie";
import express, { type Request, type Response, type Router } from "express";
import type { Logger } from "pino";
import {
  OAUTH_CALLBACK_PATH,
  OAUTH_CLIENT_METADATA_PATH,
  OAUTH_START_PATH,
} from "../oauth/server-sign-in";
import { sendNoticePage } from "./notice-pages";
import type { SessionCookies } from "./session-cookie";

const FLOW_LABEL = "server-sign-in.v1";
/** Where the popup closes itself from (a script of the host's own origin). */
const OAUTH_CLOSE_SCRIPT_PATH = "/oauth/close.js";

/** What the routes need of the host's server sign-in service. */
export interface ServerSignInRoutesPort {
  /** Takes a started flow by id. */
  opened(flowId: string): Promise<{ authorizationUrl: string; state: string }>;
  /** Finishes a flow from the callback's query. */
  finish(params: URLSearchParams): Promise<{ server: string }>;
  /** The Client ID Metadata Document, when the host's origin is https. */
  clientMetadata(): Record<string, unknown> | null;
}

/** Options of {@link serverSignInRoutes}. */
export interface ServerSignInRoutesOptions {
  /** The service, once the server is listening (null before). */
  signIn: () => ServerSignInRoutesPort | null;
  cookies: SessionCookies;
  logger: Logger;
  /** How long a flow may take, for the cookie's lifetime (s). */
  flowSeconds?: number;
}

/** The browser cookie of one flow: its name carries a digest prefix so flows do not collide. */
function flowCookieName(state: string, cookies: SessionCookies): string {
  return `mch_srv_${cookies.proofOf("server-sign-in.name", state).slice(0, 16)}`;
}

/** Whether a failure is one the service described (it carries a person's sentence). */
function sentenceOf(error: unknown): string | null {
  return error instanceof Error && error.name === "ServerSignInError" ? error.message : null;
}

/**
 * The routes of server sign-in.
 *
 * @param options - see {@link ServerSignInRoutesOptions}.
 * @returns the router (mount it before the session check).
 */
export function serverSignInRoutes(options: ServerSignInRoutesOptions): Router {
  const { cookies, logger } = options;
  const router = express.Router();
  const failed = (response: Response, error: unknown): void => {
    const sentence = sentenceOf(error);
    if (sentence === null) logger.error({ err: error }, "A server sign-in failed unexpectedly.");
    sendNoticePage(response, sentence === null ? 500 : 400, "The sign-in did not work", [
      sentence ??
        "Something went wrong on this host while signing you in. Close this window and try again from Servers in the chat.",
    ]);
  };
  const starting = (response: Response): void =>
    sendNoticePage(response, 503, "The server is starting", ["Try again in a moment."]);

  router.get(`${OAUTH_START_PATH}/:flow`, async (request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    const signIn = options.signIn();
    if (signIn === null) return starting(response);
    const flowId = String(request.params["flow"] ?? "");
    try {
      const { authorizationUrl, state } = await signIn.opened(flowId);
      response.append(
        "Set-Cookie",
        stringifySetCookie({
          name: flowCookieName(state, cookies),
          value: cookies.proofOf(FLOW_LABEL, state),
          httpOnly: true,
          // Lax: the authorization server sends the browser back with a top-level GET.
          sameSite: "lax",
          path: OAUTH_CALLBACK_PATH,
          secure: cookies.isSecure,
          maxAge: options.flowSeconds ?? 600,
        }),
      );
      // The URL was checked when the flow started (https, no private address, not this host).
      response.redirect(303, authorizationUrl);
    } catch (error) {
      failed(response, error);
    }
  });

  router.get(OAUTH_CALLBACK_PATH, async (request: Request, response: Response) => {
    response.setHeader("Cache-Control", "no-store");
    const signIn = options.signIn();
    if (signIn === null) return starting(response);
    const params = new URLSearchParams();
    for (const name of ["code", "state", "iss", "error"]) {
      const value = request.query[name];
      if (typeof value === "string") params.set(name, value.slice(0, 4_096));
    }
    const state = params.get("state") ?? "";
    const cookieName = flowCookieName(state, cookies);
    const flowCookie = parseCookie(request.headers.cookie ?? "")[cookieName];
    if (state === "" || flowCookie !== cookies.proofOf(FLOW_LABEL, state)) {
      // The flow is not this browser's (or the state was changed on the way): nothing is taken.
      sendNoticePage(response, 400, "The sign-in did not work", [
        "This sign-in was not started in this browser, or its answer was changed on the way, so it was refused. Close this window and start again from Servers in the chat.",
      ]);
      return;
    }
    response.append(
      "Set-Cookie",
      stringifySetCookie({ name: cookieName, value: "", path: OAUTH_CALLBACK_PATH, maxAge: 0 }),
    );
    try {
      const { server } = await signIn.finish(params);
      sendClosingPage(response, server);
    } catch (error) {
      failed(response, error);
    }
  });

  router.get(OAUTH_CLOSE_SCRIPT_PATH, (_request: Request, response: Response) => {
    response
      .set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" })
      .send("window.close();\n");
  });

  router.get(OAUTH_CLIENT_METADATA_PATH, (_request: Request, response: Response) => {
    const signIn = options.signIn();
    const metadata = signIn?.clientMetadata() ?? null;
    if (metadata === null) {
      response.status(404).json({ error: "not_found" });
      return;
    }
    response.set("Cache-Control", "public, max-age=300").json(metadata);
  });
  return router;
}

/** The page the popup ends on: says the server is connected and closes itself. */
function sendClosingPage(response: Response, server: string): void {
  sendNoticePage(
    response,
    200,
    "Connected",
    [
      `You are signed in to "${server}". This window closes by itself; if it stays open, close it and go back to the chat.`,
    ],
    undefined,
    { script: OAUTH_CLOSE_SCRIPT_PATH },
  );
}
