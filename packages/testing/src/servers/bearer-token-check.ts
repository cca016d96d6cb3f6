// How the protected MCP server checks a bearer token itself: a JWT access token against the
// authorization server's keys (JWKS), any other token at its introspection endpoint (RFC 7662),
// then the audience against this server's resource (RFC 8707) and the expiry against its clock.
// The audience is checked here, not left to a helper: a token for another resource is refused.
import type { AuthInfo } from "@modelcontextprotocol/server";
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from "jose";

/** Why a request was refused. */
export type RejectionReason = "missing" | "inactive" | "expired" | "audience" | "scope";

/** The authorization server as a resource server needs it. */
export interface TokenIssuer {
  /** Its issuer URL (metadata at `<issuer>/.well-known/oauth-authorization-server`). */
  readonly issuer: string;
  /** Its introspection endpoint. */
  readonly introspectionEndpoint: string;
  /** A confidential client allowed to introspect. */
  readonly introspectionClient: { clientId: string; clientSecret: string };
}

/** The outcome of a check. */
export type TokenCheck = { ok: true; authInfo: AuthInfo } | { ok: false; reason: RejectionReason };

/** What both kinds of token say about themselves. */
interface TokenClaims {
  sub?: unknown;
  aud?: unknown;
  scope?: unknown;
  exp?: unknown;
  client_id?: unknown;
}

function audiences(aud: unknown): string[] {
  if (typeof aud === "string") return [aud];
  return Array.isArray(aud)
    ? aud.filter((value): value is string => typeof value === "string")
    : [];
}

function isJwt(token: string): boolean {
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes the token check of one resource server.
 *
 * @param issuer - the authorization server.
 * @param resource - this server's resource identifier (its URL), the only audience it accepts.
 * @param clock - the time in milliseconds (tests move it to expire tokens).
 * @returns a function that checks one token.
 */
export function createTokenCheck(
  issuer: TokenIssuer,
  resource: string,
  clock: () => number,
): (token: string) => Promise<TokenCheck> {
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  async function jwks(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (keys !== undefined) return keys;
    const response = await fetch(`${issuer.issuer}/.well-known/oauth-authorization-server`, {
      signal: AbortSignal.timeout(5_000),
    });
    const metadata = (await response.json()) as { jwks_uri?: unknown };
    if (typeof metadata.jwks_uri !== "string") {
      throw new Error("The authorization server's metadata names no jwks_uri.");
    }
    keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
    return keys;
  }

  async function introspect(token: string): Promise<TokenClaims | undefined> {
    const { clientId, clientSecret } = issuer.introspectionClient;
    const credentials = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    const response = await fetch(issuer.introspectionEndpoint, {
      method: "POST",
      signal: AbortSignal.timeout(5_000),
      headers: {
        authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token }).toString(),
    });
    if (!response.ok) return undefined;
    const answer = (await response.json()) as TokenClaims & { active?: unknown };
    return answer.active === true ? answer : undefined;
  }

  return async (token) => {
    let claims: TokenClaims | undefined;
    if (isJwt(token)) {
      try {
        const verified = await jwtVerify(token, await jwks(), {
          issuer: issuer.issuer,
          currentDate: new Date(clock()),
        });
        claims = verified.payload;
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? "expired" : "inactive" };
      }
    } else {
      claims = await introspect(token);
      if (claims === undefined) return { ok: false, reason: "inactive" };
    }
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= clock()) {
      return { ok: false, reason: "expired" };
    }
    if (!audiences(claims.aud).includes(resource)) return { ok: false, reason: "audience" };
    return {
      ok: true,
      authInfo: {
        token,
        clientId: typeof claims.client_id === "string" ? claims.client_id : "",
        scopes: typeof claims.scope === "string" ? claims.scope.split(" ").filter(Boolean) : [],
        expiresAt: claims.exp,
        resource: new URL(resource),
        extra: { subject: typeof claims.sub === "string" ? claims.sub : "" },
      },
    };
  };
}
