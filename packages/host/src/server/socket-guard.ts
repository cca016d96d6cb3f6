import type { IncomingMessage } from "node:http";
import { sessionBinding, wireError, type WireError } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { Authenticator, HostUser } from "./auth";
import { signInAdvice } from "./notice-pages";
import type { OriginPolicy } from "./origin-check";

/** What an authenticated socket carries in `socket.data`. */
export interface HostSocketData {
  user: HostUser;
  sessionId: string;
}

/** The error a refused handshake passes to the client's `connect_error` (`error.data`). */
export type HandshakeError = Error & { data: WireError };

/** A socket as the auth middleware sees it. */
interface HandshakingSocket {
  request: IncomingMessage;
  /** The client's handshake; `auth` carries the host page's session binding. */
  handshake?: { auth?: unknown };
  data: Partial<HostSocketData>;
}

/** The session binding a handshake's `auth` object carries, if any. */
function handshakeBinding(socket: HandshakingSocket): unknown {
  const auth = socket.handshake?.auth;
  return typeof auth === "object" && auth !== null
    ? (auth as Record<string, unknown>)[sessionBinding.authField]
    : undefined;
}

/** What the person reads when a valid cookie came without the page's binding. */
const UNBOUND_ADVICE =
  "This page has no proof of its sign-in (its site data may have been cleared, or the cookie was copied to another program). Open a new sign-in URL: run `npx mcp-chat-host sign-in --data <data folder>` (or `npm run sign-in` in the repository) next to the running server, and open the URL it prints.";

/** The same, in the OpenID Connect mode, where signing in again is opening the host again. */
const UNBOUND_OIDC_ADVICE =
  "This page has no proof of its sign-in (its site data may have been cleared, or the cookie was copied to another program). Sign in again: open /auth/login on this address.";

/**
 * engine.io's `allowRequest`: refuses every handshake whose `Host` or `Origin` is not allowed,
 * before any WebSocket is set up (the client sees a failed upgrade → `connect_error`).
 *
 * @param policy - the host's allow-lists (undefined before listening: everything is refused).
 * @param logger - refusals are logged with their reason.
 * @returns the `allowRequest` function.
 */
export function handshakeOriginCheck(
  policy: () => OriginPolicy | undefined,
  logger: Logger,
): (
  request: IncomingMessage,
  callback: (error: string | null | undefined, success: boolean) => void,
) => void {
  return (request, callback) => {
    const current = policy();
    const refusal =
      current === undefined
        ? { error: wireError("unavailable", "The server is not ready.") }
        : current.checkHandshake(request);
    if (refusal === null) {
      callback(null, true);
      return;
    }
    logger.warn(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        peer: request.socket.remoteAddress,
      },
      `Refused a socket handshake: ${refusal.error.message}`,
    );
    callback(refusal.error.message, false);
  };
}

/**
 * socket.io middleware (`io.use`) that authenticates the handshake and puts `{ user, sessionId }`
 * on `socket.data`. In the token mode the handshake needs the session cookie *and* its binding
 * (`auth.binding`): a cookie replayed by a program on another port of the host's name has no
 * binding and is refused. A refusal reaches the client's `connect_error` with a message saying how
 * to sign in and the {@link WireError} as `error.data` (`unauthorized`, or `internal` when the
 * auth check itself failed).
 *
 * @param authenticator - recognises the user.
 * @param logger - refusals are logged.
 * @returns the middleware.
 */
export function socketAuth(
  authenticator: Authenticator,
  logger: Logger,
): (socket: HandshakingSocket, next: (error?: Error) => void) => void {
  return (socket, next) => {
    authenticator
      .authenticate(socket.request, { binding: handshakeBinding(socket), requireBinding: true })
      .then(
        (result) => {
          if (result.ok) {
            socket.data.user = result.session.user;
            socket.data.sessionId = result.session.sessionId;
            next();
            return;
          }
          const error =
            result.failure === "failed"
              ? wireError(
                  "internal",
                  "Signing in failed on the server; try again, and tell the operator if it keeps failing.",
                  {
                    retryable: true,
                  },
                )
              : result.failure === "unbound"
                ? wireError(
                    "unauthorized",
                    authenticator.mode === "oidc" ? UNBOUND_OIDC_ADVICE : UNBOUND_ADVICE,
                  )
                : wireError("unauthorized", signInAdvice[authenticator.mode].join(" "));
          logger.warn(
            { peer: socket.request.socket.remoteAddress, failure: result.failure },
            "Refused an unauthenticated socket.",
          );
          next(handshakeError(error));
        },
        (error: unknown) => {
          logger.error({ err: error }, "Socket authentication failed.");
          next(
            handshakeError(
              wireError("internal", "Signing in failed on the server; try again.", {
                retryable: true,
              }),
            ),
          );
        },
      );
  };
}

/** An Error carrying a WireError, as socket.io sends it in `connect_error`. */
function handshakeError(error: WireError): HandshakeError {
  return Object.assign(new Error(error.message), { data: error });
}
