// The OpenID Connect sign-in's settings from the command line and the environment. The client
// secret comes only from the environment (OIDC_CLIENT_SECRET, withdrawn at start with the other
// secrets) or a file (OIDC_CLIENT_SECRET_FILE), never from argv, which every local user can read.
import { CliError } from "./cli-error";
import { secretSetting } from "./secret-setting";

/** The OpenID Connect mode as the command line gave it (the secret is read at start). */
export interface OidcCliAuth {
  mode: "oidc";
  issuer: string;
  clientId: string;
  scopes: string[];
  allowedDomains: string[];
  allowedGroups: string[];
  signInTimeoutSeconds: number;
}

/** The flags of the mode, as `parseArgs` read them. */
export interface OidcFlags {
  "oidc-issuer"?: string | undefined;
  "oidc-client-id"?: string | undefined;
  "oidc-scopes"?: string | undefined;
  "oidc-allowed-domains"?: string | undefined;
  "oidc-allowed-groups"?: string | undefined;
  "oidc-sign-in-timeout"?: string | undefined;
}

/** Splits `a.com,b.org` or `openid email` into its items. */
function list(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * The OpenID Connect mode of a command line, or undefined when `--oidc-issuer` is absent.
 *
 * @param flags - the parsed flags.
 * @param env - the environment (`OIDC_CLIENT_ID`).
 * @returns the mode's settings.
 * @throws {CliError} for another `--oidc-*` flag without `--oidc-issuer`, a missing client id, or
 *   a bad timeout.
 */
export function oidcAuthFrom(
  flags: OidcFlags,
  env: Record<string, string | undefined>,
): OidcCliAuth | undefined {
  const issuer = flags["oidc-issuer"];
  if (issuer === undefined) {
    const stray = (Object.keys(flags) as (keyof OidcFlags)[]).find(
      (name) => name.startsWith("oidc-") && flags[name] !== undefined,
    );
    if (stray !== undefined) {
      throw new CliError(`--${stray} goes with --oidc-issuer (the provider to sign in with).`);
    }
    return undefined;
  }
  let issuerUrl: URL | undefined;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    issuerUrl = undefined;
  }
  const loopback =
    issuerUrl !== undefined &&
    (issuerUrl.hostname === "localhost" ||
      issuerUrl.hostname === "[::1]" ||
      /^127\.\d+\.\d+\.\d+$/.test(issuerUrl.hostname));
  if (
    issuerUrl === undefined ||
    !(issuerUrl.protocol === "https:" || (issuerUrl.protocol === "http:" && loopback))
  ) {
    throw new CliError(
      `--oidc-issuer must be the provider's https URL (e.g. https://accounts.example.com; plain http only on loopback), not "${issuer}".`,
    );
  }
  const clientId = flags["oidc-client-id"] ?? (env["OIDC_CLIENT_ID"] || undefined);
  if (clientId === undefined || clientId.trim() === "") {
    throw new CliError(
      "--oidc-issuer needs the client id the provider registered for this host: --oidc-client-id <id> or OIDC_CLIENT_ID.",
    );
  }
  const timeoutText = flags["oidc-sign-in-timeout"];
  const signInTimeoutSeconds = timeoutText === undefined ? 600 : Number(timeoutText);
  if (
    !Number.isFinite(signInTimeoutSeconds) ||
    signInTimeoutSeconds <= 0 ||
    signInTimeoutSeconds > 86_400
  ) {
    throw new CliError(
      `--oidc-sign-in-timeout must be a number of seconds above 0 and at most 86400, not "${timeoutText}".`,
    );
  }
  const scopes = list(flags["oidc-scopes"]);
  return {
    mode: "oidc",
    issuer,
    clientId,
    scopes: scopes.length === 0 ? ["openid", "email", "profile"] : scopes,
    allowedDomains: list(flags["oidc-allowed-domains"]),
    allowedGroups: list(flags["oidc-allowed-groups"]),
    signInTimeoutSeconds,
  };
}

/**
 * The client secret: `OIDC_CLIENT_SECRET`, else the content of the file `OIDC_CLIENT_SECRET_FILE`
 * names (trimmed), else none (a public client, PKCE alone).
 *
 * @param environment - the environment the secrets were withdrawn into.
 * @returns the secret, or undefined.
 * @throws {CliError} when the file can't be read or is empty.
 */
export function oidcClientSecretFrom(
  environment: Record<string, string | undefined>,
): string | undefined {
  return secretSetting(environment, "OIDC_CLIENT_SECRET");
}
