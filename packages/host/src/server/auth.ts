import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import type { Logger } from "pino";
import { HttpLayerError } from "../errors/http-layer-error";
import { OIDC_USER_PREFIX, type OidcOptions } from "./oidc-options";
import type { SessionCookies, SessionCookieValue } from "./session-cookie";

/** Who is using the host. */
export interface HostUser {
  id: string;
  name: string;
}

/** An authenticated request or socket: its user and the browser session it belongs to. */
export interface AuthenticatedSession {
  user: HostUser;
  /** Stable across page reloads of one signed-in browser (from the session cookie). */
  sessionId: string;
}

/**
 * How people are recognised.
 * - `token` (the default): one operator; a one-time URL printed at start is exchanged for a
 *   session cookie. `user` defaults to `{ id: "operator", name: "Operator" }`.
 * - `trusted-header`: behind an authenticating proxy; the user id comes from `header` (default
 *   `x-forwarded-user`), accepted only when the TCP peer is in `proxies` (addresses or CIDR).
 * - `oidc`: people sign in with the organisation's OpenID provider (see {@link OidcOptions}); the
 *   user id is `oidcUserId(iss, sub)`, and the sign-in is kept as in the token mode (the session
 *   cookie and its binding).
 * - `function`: your own check; return a user, or null to refuse. Returning a user for every
 *   request turns auth off, which is yours to decide.
 */
export type AuthOptions =
  | { mode: "token"; user?: HostUser | undefined }
  | ({ mode: "oidc" } & OidcOptions)
  | {
      mode: "trusted-header";
      header?: string | undefined;
      /** Header with a display name; the id is used when absent. */
      nameHeader?: string | undefined;
      proxies: readonly string[];
    }
  | {
      mode: "function";
      authenticate(request: IncomingMessage): HostUser | null | Promise<HostUser | null>;
    };

/** What a request carries besides its cookie, and what it must prove (token and oidc modes). */
export interface RequestCredentials {
  /**
   * The session binding the host page sent (socket `auth.binding`, or the
   * `x-mch-session-binding` header of an HTTP request); anything, only a matching string counts.
   */
  binding?: unknown;
  /**
   * Whether a cookie without its binding is refused (sockets and data routes), or accepted as
   * unbound (the web app's own files and the sign-in page, which hold nothing of the person's).
   */
  requireBinding?: boolean;
}

/** The answer of {@link Authenticator.authenticate}. */
export type AuthResult =
  | {
      ok: true;
      session: AuthenticatedSession;
      /**
       * Whether the request proved it comes from the host page: the cookie's binding matched, or
       * the mode has no cookie credential (there it is the header or the function).
       */
      bound: boolean;
      /** A `Set-Cookie` value that gives this browser a stable session id, when it had none. */
      setCookie?: string;
    }
  /**
   * `unauthenticated`: no valid credentials (401). `unbound`: a valid cookie without its binding
   * where one is required (401; a copied cookie, or a page that lost its storage). `failed`: the
   * check itself broke (500).
   */
  | { ok: false; failure: "unauthenticated" | "unbound" | "failed" };

/** The user of the token mode when none is configured. */
const DEFAULT_OPERATOR: HostUser = { id: "operator", name: "Operator" };

const USER_TEXT = /^[^\p{Cc}]{1,200}$/u;

/** The first value of a header, or undefined when it repeats (ambiguous) or is absent. */
function singleHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === "string" ? value.trim() : undefined;
}

/** IPv4-mapped IPv6 peers (`::ffff:127.0.0.1`, from a dual-stack socket) as plain IPv4. */
function normalisePeer(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  return address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4
    ? address.slice(7)
    : address;
}

/**
 * Builds the list of trusted proxy addresses.
 *
 * @throws {HttpLayerError} `bad_option` for an entry that is neither an address nor a CIDR range.
 */
function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefixText] = entry.trim().split("/");
    const family = isIP(address);
    const prefix = prefixText === undefined ? undefined : Number(prefixText);
    const maxPrefix = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxPrefix))
    ) {
      throw new HttpLayerError(
        "bad_option",
        `auth.proxies: "${entry}" is not an IP address or CIDR range; write e.g. "127.0.0.1" or "10.0.0.0/8".`,
      );
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

/**
 * Recognises the user of an HTTP request or socket handshake, for every auth mode. In the token
 * and OpenID Connect modes the session cookie together with its binding is the credential (the cookie reaches every
 * port of the host's name, the binding only the host page's own origin); in the other modes the
 * credential comes from the header or function, and the cookie (bound to that user) only keeps the
 * session id stable.
 */
export class Authenticator {
  /** The configured mode. */
  readonly mode: AuthOptions["mode"];
  private readonly options: AuthOptions;
  private readonly cookies: SessionCookies;
  private readonly logger: Logger;
  private readonly proxies: BlockList | undefined;

  /**
   * @param options - the auth mode.
   * @param cookies - the session cookie codec.
   * @param logger - where refusals are logged with their reason.
   * @throws {HttpLayerError} `bad_option` for a malformed proxy list.
   */
  constructor(options: AuthOptions, cookies: SessionCookies, logger: Logger) {
    this.mode = options.mode;
    this.options = options;
    this.cookies = cookies;
    this.logger = logger;
    this.proxies = options.mode === "trusted-header" ? proxyList(options.proxies) : undefined;
  }

  /** The user of the token mode. */
  get operator(): HostUser {
    return this.options.mode === "token"
      ? (this.options.user ?? DEFAULT_OPERATOR)
      : DEFAULT_OPERATOR;
  }

  /**
   * Issues a session cookie for the token mode's operator (after a token exchange).
   *
   * @returns the session id, the `Set-Cookie` value and the binding to hand to the host page.
   */
  issueOperatorSession(): { sessionId: string; setCookie: string; binding: string } {
    return this.cookies.issue(this.operator.id);
  }

  /**
   * Issues a session cookie for a person the OpenID Connect sign-in admitted.
   *
   * @param user - the person (an id made by `oidcUserId`, and a display name).
   * @returns the session id, the `Set-Cookie` value and the binding to hand to the host page.
   */
  issueSession(user: HostUser): { sessionId: string; setCookie: string; binding: string } {
    return this.cookies.issue(user.id, undefined, user.name);
  }

  /**
   * The user a cookie of a cookie mode stands for, or null when it belongs to no user of this
   * mode (an operator cookie is no OpenID sign-in, nor the other way round, even under one key).
   */
  private cookieUser(cookie: SessionCookieValue): HostUser | null {
    if (this.options.mode === "token")
      return cookie.userId === this.operator.id ? this.operator : null;
    if (this.options.mode === "oidc" && cookie.userId.startsWith(OIDC_USER_PREFIX)) {
      return { id: cookie.userId, name: cookie.userName ?? cookie.userId };
    }
    return null;
  }

  /**
   * Recognises the user of a request. Never throws: a failing auth function is logged and
   * answered with `failed`. In the token mode every value of the session cookie is tried (a
   * shadowing cookie must not lock the person out), and the one whose binding matches wins.
   *
   * @param request - an HTTP request or a socket's handshake request.
   * @param credentials - the binding the client sent, and whether it is required.
   * @returns the session, or why there is none.
   */
  async authenticate(
    request: IncomingMessage,
    credentials: RequestCredentials = {},
  ): Promise<AuthResult> {
    const cookies = this.cookies.readAll(request.headers.cookie);
    if (this.options.mode === "token" || this.options.mode === "oidc") {
      const candidates = cookies.flatMap((cookie) => {
        const user = this.cookieUser(cookie);
        return user === null ? [] : [{ user, sessionId: cookie.sessionId }];
      });
      const first = candidates[0];
      if (first === undefined) return { ok: false, failure: "unauthenticated" };
      const bound = candidates.find((cookie) =>
        this.cookies.verifyBinding(cookie.sessionId, credentials.binding),
      );
      if (bound !== undefined) return { ok: true, bound: true, session: bound };
      if (credentials.requireBinding === true) {
        this.logger.warn(
          {
            peer: request.socket.remoteAddress,
            binding: credentials.binding === undefined ? "absent" : "wrong",
          },
          "Refused a valid session cookie without its binding: it may have been copied from another port of this host, or the page lost its storage.",
        );
        return { ok: false, failure: "unbound" };
      }
      return { ok: true, bound: false, session: first };
    }
    let user: HostUser | null;
    if (this.options.mode === "trusted-header") {
      user = this.userFromHeader(request, this.options);
    } else {
      try {
        const returned = await this.options.authenticate(request);
        user = validUser(returned);
        if (user === null && returned !== null && returned !== undefined) {
          this.logger.warn(
            "The auth function returned something that is not a user ({ id, name }); refused.",
          );
        }
      } catch (error) {
        this.logger.error({ err: error }, "The auth function threw; the request is refused.");
        return { ok: false, failure: "failed" };
      }
    }
    if (user === null) return { ok: false, failure: "unauthenticated" };
    const userId = user.id;
    const cookie = cookies.find((candidate) => candidate.userId === userId);
    if (cookie !== undefined) {
      return { ok: true, bound: true, session: { user, sessionId: cookie.sessionId } };
    }
    const issued = this.cookies.issue(user.id);
    return {
      ok: true,
      bound: true,
      session: { user, sessionId: issued.sessionId },
      setCookie: issued.setCookie,
    };
  }

  private userFromHeader(
    request: IncomingMessage,
    options: Extract<AuthOptions, { mode: "trusted-header" }>,
  ): HostUser | null {
    const headerName = options.header ?? "x-forwarded-user";
    const id = singleHeader(request, headerName);
    const peer = normalisePeer(request.socket.remoteAddress);
    const peerTrusted =
      peer !== undefined && this.proxies?.check(peer, isIP(peer) === 6 ? "ipv6" : "ipv4") === true;
    if (!peerTrusted) {
      if (id !== undefined) {
        this.logger.warn(
          { peer, header: headerName },
          "User header from an address that is not a trusted proxy; refused.",
        );
      }
      return null;
    }
    if (id === undefined || !USER_TEXT.test(id)) return null;
    const name =
      options.nameHeader === undefined ? undefined : singleHeader(request, options.nameHeader);
    return { id, name: name !== undefined && USER_TEXT.test(name) ? name : id };
  }
}

/** Accepts what an auth function returned only when it is a user with a usable id. */
function validUser(value: unknown): HostUser | null {
  if (value === null || value === undefined || typeof value !== "object") return null;
  const { id, name } = value as { id?: unknown; name?: unknown };
  if (typeof id !== "string" || !USER_TEXT.test(id)) return null;
  return { id, name: typeof name === "string" && USER_TEXT.test(name) ? name : id };
}
