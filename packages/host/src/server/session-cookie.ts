import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";

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
}

const FORMAT = "v1";
const DEFAULT_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** Base64url of a UTF-8 string. */
function encodeText(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/**
 * The signed session cookie: `v1.<sessionId>.<userId>.<issuedAt>.<mac>` (HMAC-SHA256). It carries
 * no secret the server keeps, so it survives a restart when the secret does, and it is HttpOnly
 * and SameSite=Strict so neither a view nor another site can use it. The cookie is readable by the
 * sandbox listeners (cookies ignore ports) but they never look at it.
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
   * @returns the session id and the `Set-Cookie` header value.
   */
  issue(
    userId: string,
    sessionId: string = randomBytes(16).toString("base64url"),
  ): {
    sessionId: string;
    setCookie: string;
  } {
    const issuedAt = Math.floor(this.now() / 1000);
    const body = `${FORMAT}.${sessionId}.${encodeText(userId)}.${issuedAt}`;
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
    return { sessionId, setCookie };
  }

  /**
   * Reads and verifies the session cookie of a request.
   *
   * @param cookieHeader - the request's `Cookie` header.
   * @returns the session, or null when absent, forged, malformed or expired.
   */
  read(cookieHeader: string | undefined): SessionCookieValue | null {
    if (cookieHeader === undefined) return null;
    const value = parseCookie(cookieHeader)[this.name];
    if (value === undefined) return null;
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
    return { sessionId, userId: Buffer.from(encodedUser, "base64url").toString("utf8") };
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }
}
