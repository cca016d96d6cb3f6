import type { HostUser } from "./auth";
import { type CheckedOidcOptions, oidcUserId } from "./oidc-options";

/** The ID token claims the admission reads (already validated by the OpenID client). */
export interface OidcClaims {
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  groups?: unknown;
}

/** Whether a person may sign in, and as whom. */
export type OidcAdmission =
  | { admitted: true; user: HostUser }
  | {
      admitted: false;
      /** For the log: which rule refused. */
      rule: "domain" | "groups";
      /** What the person reads (their own email or nothing else of theirs). */
      paragraphs: string[];
    };

/** A claim as text a person may read: short, without control characters. */
function claimText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text.length > 0 && text.length <= 200 && !/\p{Cc}/u.test(text) ? text : undefined;
}

/** "example.com", "example.com or example.org", "a.com, b.com or c.com". */
function either(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1) ?? ""}`;
}

/**
 * Decides whether the person of a validated ID token may use the host: with allowed domains,
 * their `email` must be verified (`email_verified: true`) and at one of them; with allowed
 * groups, their `groups` claim must name one. Both rules apply when both are set. The user id is
 * {@link oidcUserId} of `(iss, sub)`; the name is `name`, else `email`, else
 * `preferred_username`, else `sub`.
 *
 * @param claims - the ID token's claims.
 * @param options - the mode's settings.
 * @returns the user, or which rule refused and what to tell the person.
 */
export function admitOidcPerson(claims: OidcClaims, options: CheckedOidcOptions): OidcAdmission {
  const email = claimText(claims.email);
  const operatorAdvice = "or ask the operator of this host to let your account in.";
  if (options.allowedDomains.length > 0) {
    const domain = email?.split("@").pop()?.toLowerCase();
    const verified = claims.email_verified === true;
    if (email === undefined || !verified || !options.allowedDomains.includes(domain ?? "")) {
      const account =
        email === undefined
          ? "Your account has no email address"
          : verified
            ? `Your account ${email} is not allowed here`
            : `Your account's email ${email} is not verified by the provider`;
      return {
        admitted: false,
        rule: "domain",
        paragraphs: [
          `${account}; sign in with an account of ${either(options.allowedDomains)}, ${operatorAdvice}`,
        ],
      };
    }
  }
  if (options.allowedGroups.length > 0) {
    const groups = Array.isArray(claims.groups)
      ? claims.groups.filter((group): group is string => typeof group === "string")
      : [];
    if (!groups.some((group) => options.allowedGroups.includes(group))) {
      const who = email === undefined ? "Your account" : `Your account ${email}`;
      return {
        admitted: false,
        rule: "groups",
        paragraphs: [
          `${who} is not in a group allowed here; sign in with an account in ${either(options.allowedGroups)}, ${operatorAdvice}`,
        ],
      };
    }
  }
  const name =
    claimText(claims.name) ??
    email ??
    claimText(claims.preferred_username) ??
    claimText(claims.sub);
  const id = oidcUserId(claims.iss, claims.sub);
  return { admitted: true, user: { id, name: name ?? id } };
}
