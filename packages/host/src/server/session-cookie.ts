import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { stringifySetCookie } from "cookie";

/** How a {@link SessionCookies} codec signs and names its cookie. */
export interface SessionCookieOptions {
  /**
   * Key for the cookie's signature. Pass one that persists (e.g. a file in the data folder) so
   * sign-ins survive a restart; the default is random per process.
   */
  secret?: string | Uint8Array | undefined;
  /** Lifetime of a sign-in, in seconds (default 7 days). */
  maxAgeSeconds?: number | undefined;
  /** Adds `Secure` and the `__Host-` name prefix: set when people reach the host over https. */
  secure: boolean;
  /** Clock in ms since the epoch (tests inject one). */
  now?: (() => number) | undefined;
}

/** A valid session cookie, read back. */
export interface SessionCookieValue {
  sessionId: string;
  userId: string;
  /** The display name the sign-in gave (OpenID Connect), when it gave one. */
  userName?: string;
}

const FORMAT = "v1";
const BINDING_LABEL = "binding.v1";
const DEFAULT_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
// The host reads request heads up to 64 KiB (`header-overflow.ts`), so a real browser stays far
// below this; it only bounds the work (one HMAC per value) whatever the header limit is set to.
const MAX_CANDIDATES = 1_000;

/**
 * Every value of the cookie `name` in a `Cookie` header, in the order the browser sent them. A
 * page on another port of the same host can set a cookie of the same name with a longer `Path`,
 * which browsers send first; reading only the first value would let it shadow the real one.
 */
function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    if (value.includes("%")) {
      try {
        value = decodeURIComponent(value);
      } catch {
        continue; // not a value this server wrote
      }
    }
    values.push(value);
    if (values.length >= MAX_CANDIDATES) break;
  }
  return values;
}

/** Base64url of a UTF-8 string. */
function encodeText(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/**
 * The signed session cookie: `v1.<sessionId>.<userId>[~<name>].<issuedAt>.<mac>` (HMAC-SHA256; the
 * user's id and optional display name in base64url, whose alphabet has no `~`). It carries
 * no secret the server keeps, so it survives a restart when the secret does, and it is HttpOnly
 * and SameSite=Strict so neither a view nor another site can use it.
 *
 * Cookies ignore ports, so the cookie also reaches every other port of the host's name (the
 * sandbox listeners never look at it; a stranger's listener might). It is therefore not enough on
 * its own in the token mode: each session also has a *binding*, an HMAC of its id under the same
 * secret with another label, which the sign-in hands to the host page only (it keeps it in its own
 * origin's storage, which is per port) and which the page sends with its socket handshake.
 */
export class SessionCookies {
  /** The cookie's name (`__Host-mch_session` when secure, else `mch_session`). */
  readonly name: string;
  private readonly secret: Buffer;
  private readonly maxAgeSeconds: number;
  private readonly secure: boolean;
  private readonly now: () => number;

  /** @param options - secret, lifetime, https and clock. */
  constructor(options: SessionCookieOptions) {
    this.secret =
      options.secret === undefined
        ? randomBytes(32)
        : Buffer.from(
            typeof options.secret === "string"
              ? Buffer.from(options.secret, "utf8")
              : options.secret,
          );
    this.maxAgeSeconds = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
    this.secure = options.secure;
    this.now = options.now ?? Date.now;
    this.name = options.secure ? "__Host-mch_session" : "mch_session";
  }

  /**
   * Issues a cookie for a new (or given) session of a user.
   *
   * @param userId - whose session it is.
   * @param sessionId - keep an existing session id; a new random one otherwise.
   * @param userName - a display name to keep with the id (the OpenID Connect mode's).
   * @returns the session id, the `Set-Cookie` header value and the session's binding.
   */
  issue(
    userId: string,
    sessionId: string = randomBytes(16).toString("base64url"),
    userName?: string,
  ): {
    sessionId: string;
    setCookie: string;
    /** The session's binding (see {@link SessionCookies.bindingFor}). */
    binding: string;
  } {
    const issuedAt = Math.floor(this.now() / 1000);
    const user =
      userName === undefined ? encodeText(userId) : `${encodeText(userId)}~${encodeText(userName)}`;
    const body = `${FORMAT}.${sessionId}.${user}.${issuedAt}`;
    const value = `${body}.${this.sign(body)}`;
    const setCookie = stringifySetCookie({
      name: this.name,
      value,
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      secure: this.secure,
      maxAge: this.maxAgeSeconds,
    });
    return { sessionId, setCookie, binding: this.bindingFor(sessionId) };
  }

  /**
   * The binding of a session: what the host page must present along with the cookie. It is
   * derived from the session id and the secret, so it needs no storage and survives a restart
   * exactly when the cookie does.
   *
   * @param sessionId - the session.
   * @returns base64url text.
   */
  bindingFor(sessionId: string): string {
    return this.sign(`${BINDING_LABEL}.${sessionId}`);
  }

  /**
   * A `Set-Cookie` value that removes the session cookie from the browser (a sign-out).
   *
   * @returns the header value.
   */
  clear(): string {
    return stringifySetCookie({
      name: this.name,
      value: "",
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      secure: this.secure,
      maxAge: 0,
    });
  }

  /** Whether the cookie is `Secure` (the host is reached over https). */
  get isSecure(): boolean {
    return this.secure;
  }

  /**
   * A keyed proof of a value under the cookie's secret with its own label, for another cookie
   * the host must be able to tell it set (the OpenID Connect flow's), which a page elsewhere on
   * the host's name cannot forge.
   *
   * @param label - what the proof is for.
   * @param value - the value proven.
   * @returns base64url text.
   */
  proofOf(label: string, value: string): string {
    return this.sign(`${label}.${value}`);
  }

  /**
   * Checks a binding a client presented for a session.
   *
   * @param sessionId - the session of a verified cookie.
   * @param binding - what the client sent (anything; only a matching string passes).
   * @returns whether it is that session's binding.
   */
  verifyBinding(sessionId: string, binding: unknown): boolean {
    if (typeof binding !== "string" || binding.length === 0 || binding.length > 200) return false;
    const expected = Buffer.from(this.bindingFor(sessionId), "utf8");
    const given = Buffer.from(binding, "utf8");
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * Reads and verifies the session cookie of a request: the first of its values that verifies.
   *
   * @param cookieHeader - the request's `Cookie` header.
   * @returns the session, or null when absent, forged, malformed or expired.
   */
  read(cookieHeader: string | undefined): SessionCookieValue | null {
    return this.readAll(cookieHeader)[0] ?? null;
  }

  /**
   * Every value of the session cookie in a request that verifies, in the order sent. A request
   * may carry several (a cookie of the same name set by another page of the host's name, with a
   * longer path, comes first); the forged ones are skipped rather than refusing the request.
   *
   * @param cookieHeader - the request's `Cookie` header.
   * @returns the valid sessions, possibly none.
   */
  readAll(cookieHeader: string | undefined): SessionCookieValue[] {
    if (cookieHeader === undefined) return [];
    const valid: SessionCookieValue[] = [];
    for (const value of cookieValues(cookieHeader, this.name)) {
      const session = this.verify(value);
      if (session !== null) valid.push(session);
    }
    return valid;
  }

  /** Verifies one cookie value: format, signature, lifetime. */
  private verify(value: string): SessionCookieValue | null {
    const parts = value.split(".");
    if (parts.length !== 5 || parts[0] !== FORMAT) return null;
    const [, sessionId, encodedUser, issuedText, mac] = parts as [
      string,
      string,
      string,
      string,
      string,
    ];
    const expected = Buffer.from(this.sign(parts.slice(0, 4).join(".")), "utf8");
    const given = Buffer.from(mac, "utf8");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const issuedAt = Number(issuedText);
    const nowSeconds = this.now() / 1000;
    if (!Number.isInteger(issuedAt) || issuedAt > nowSeconds + 60) return null;
    if (nowSeconds - issuedAt > this.maxAgeSeconds) return null;
    if (sessionId.length === 0) return null;
    const [encodedId = "", encodedName] = encodedUser.split("~");
    const userId = Buffer.from(encodedId, "base64url").toString("utf8");
    return encodedName === undefined
      ? { sessionId, userId }
      : { sessionId, userId, userName: Buffer.from(encodedName, "base64url").toString("utf8") };
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }
}
