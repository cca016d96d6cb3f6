import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { HttpLayerError } from "../errors/http-layer-error";

/**
 * The OpenID Connect auth mode's settings: people sign in with the organisation's provider
 * (the authorization code flow with PKCE), and the host keeps their sign-in in the same session
 * cookie and binding as the token mode.
 */
export interface OidcOptions {
  /** The provider's issuer URL; its `/.well-known/openid-configuration` is read at the first sign-in. */
  issuer: string;
  /** The client id the provider registered for this host. */
  clientId: string;
  /** The client's secret; none: a public client (PKCE alone proves the flow). */
  clientSecret?: string | undefined;
  /** Scopes asked for (default `openid email profile`); `openid` is always added. */
  scopes?: readonly string[] | undefined;
  /**
   * Only people whose verified `email` (`email_verified: true`) is at one of these domains may
   * sign in (exact domains, case-insensitive). None: any domain.
   */
  allowedDomains?: readonly string[] | undefined;
  /** Only people whose `groups` claim names one of these may sign in. None: any group. */
  allowedGroups?: readonly string[] | undefined;
  /** How long a started sign-in may take before its `state` expires, in seconds (default 600). */
  signInTimeoutSeconds?: number | undefined;
}

/** The prefix of every user id the OpenID Connect mode makes. */
export const OIDC_USER_PREFIX = "oidc-";

/**
 * The user id of a person signed in with OpenID Connect: `oidc-` and the base64url SHA-256 of
 * the JSON array `[issuer, subject]`. The pair is what the spec makes stable and unique (a `sub`
 * is unique only within its issuer), the hash keeps the id short whatever the `sub` is, and the
 * JSON array keeps two different pairs from ever joining into the same text. An email is never
 * the id: it can change hands.
 *
 * @param issuer - the ID token's `iss`.
 * @param subject - the ID token's `sub`.
 * @returns the id (`oidc-` and 43 characters).
 */
export function oidcUserId(issuer: string, subject: string): string {
  const digest = createHash("sha256").update(JSON.stringify([issuer, subject]), "utf8");
  return `${OIDC_USER_PREFIX}${digest.digest("base64url")}`;
}

/** Whether an issuer's host name is this machine's loopback: `localhost`, 127.0.0.0/8 or `::1`. */
function isLoopbackIssuerHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/** The settings after checking, as the sign-in uses them. */
export interface CheckedOidcOptions {
  issuer: URL;
  clientId: string;
  clientSecret: string | undefined;
  scope: string;
  allowedDomains: readonly string[];
  allowedGroups: readonly string[];
  signInTimeoutMs: number;
  /** Whether plain-HTTP requests to the issuer are allowed (only for a loopback issuer). */
  insecureLoopback: boolean;
}

const DEFAULT_SCOPES = ["openid", "email", "profile"];
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$|^localhost$/;

/**
 * Checks the OpenID Connect settings.
 *
 * @param options - the mode's settings.
 * @returns the checked settings.
 * @throws {HttpLayerError} `bad_option` for an issuer that is not an https URL (http only on
 *   loopback), an empty client id, a malformed domain, or a bad timeout.
 */
export function checkOidcOptions(options: OidcOptions): CheckedOidcOptions {
  let issuer: URL;
  try {
    issuer = new URL(options.issuer);
  } catch {
    throw new HttpLayerError(
      "bad_option",
      `auth.issuer: "${options.issuer}" is not a URL; write the provider's issuer, e.g. https://accounts.example.com.`,
    );
  }
  const insecureLoopback = issuer.protocol === "http:" && isLoopbackIssuerHost(issuer.hostname);
  if (issuer.protocol !== "https:" && !insecureLoopback) {
    throw new HttpLayerError(
      "bad_option",
      `auth.issuer: "${options.issuer}" must use https (plain http only for a provider on this machine's loopback).`,
    );
  }
  if (issuer.search !== "" || issuer.hash !== "") {
    throw new HttpLayerError(
      "bad_option",
      `auth.issuer: "${options.issuer}" must have no query or fragment.`,
    );
  }
  if (options.clientId.trim() === "") {
    throw new HttpLayerError(
      "bad_option",
      "auth.clientId is empty; give the client id the provider registered for this host.",
    );
  }
  const allowedDomains = (options.allowedDomains ?? []).map((domain) =>
    domain.trim().toLowerCase(),
  );
  for (const domain of allowedDomains) {
    if (!DOMAIN.test(domain)) {
      throw new HttpLayerError(
        "bad_option",
        `auth.allowedDomains: "${domain}" is not a domain; write e.g. example.com.`,
      );
    }
  }
  const allowedGroups = (options.allowedGroups ?? []).map((group) => group.trim());
  if (allowedGroups.some((group) => group === "")) {
    throw new HttpLayerError("bad_option", "auth.allowedGroups holds an empty group name.");
  }
  const timeout = options.signInTimeoutSeconds ?? 600;
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 86_400) {
    throw new HttpLayerError(
      "bad_option",
      `auth.signInTimeoutSeconds must be more than 0 and at most 86400, not ${String(timeout)}.`,
    );
  }
  const scopes = new Set(["openid", ...(options.scopes ?? DEFAULT_SCOPES)]);
  return {
    issuer,
    clientId: options.clientId,
    clientSecret:
      options.clientSecret === undefined || options.clientSecret === ""
        ? undefined
        : options.clientSecret,
    scope: [...scopes].join(" "),
    allowedDomains,
    allowedGroups,
    signInTimeoutMs: Math.round(timeout * 1_000),
    insecureLoopback,
  };
}
