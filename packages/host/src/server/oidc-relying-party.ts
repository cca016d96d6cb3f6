import * as client from "openid-client";
import type { Logger } from "pino";
import type { OidcClaims } from "./oidc-admission";
import type { CheckedOidcOptions } from "./oidc-options";

/** Why a step with the provider failed, as the person is told. */
export type OidcFailureKind =
  /** The provider could not be reached, or answered with something that is not its API. */
  | "unreachable"
  /** The provider answered with an OAuth error (access denied, code already used, ...). */
  | "refused"
  /** The provider's answer did not pass the checks (audience, issuer, nonce, expiry, signature). */
  | "invalid";

/** A failed step with the provider; `detail` is for the log only (never holds a token). */
export class OidcFailure extends Error {
  override readonly name = "OidcFailure";
  /** What went wrong, for the page the person sees. */
  readonly kind: OidcFailureKind;
  /** The provider's OAuth error code, when it sent one (`access_denied`). */
  readonly providerError: string | undefined;

  /**
   * @param kind - what went wrong.
   * @param detail - the library's message, for the log.
   * @param providerError - the provider's `error` code.
   */
  constructor(kind: OidcFailureKind, detail: string, providerError?: string, cause?: unknown) {
    super(detail, { cause });
    this.kind = kind;
    this.providerError = providerError;
  }
}

/** What the start of a sign-in keeps until the provider answers. */
export interface OidcFlowSecrets {
  nonce: string;
  codeVerifier: string;
}

/** The error codes of checks on the provider's answer (openid-client's, from oauth4webapi). */
const CHECK_FAILURES = new Set([
  "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
  "OAUTH_JWT_TIMESTAMP_CHECK_FAILED",
  "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED",
  "OAUTH_KEY_SELECTION_FAILED",
  "OAUTH_INVALID_RESPONSE",
  "OAUTH_PARSE_ERROR",
]);

/**
 * Turns what openid-client threw into an {@link OidcFailure}: a network failure is `unreachable`,
 * an OAuth error answer `refused`, a failed check of the answer `invalid`.
 */
function asFailure(error: unknown): OidcFailure {
  if (error instanceof OidcFailure) return error;
  if (
    error instanceof client.ResponseBodyError ||
    error instanceof client.AuthorizationResponseError
  ) {
    return new OidcFailure("refused", error.message, error.error, error);
  }
  if (error instanceof client.ClientError && CHECK_FAILURES.has(error.code ?? "")) {
    // The cause says which check (`unexpected JWT "aud" (audience) claim value`); its own
    // cause holds the claims, which stay out of the log.
    const check = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return new OidcFailure(
      "invalid",
      `${error.code ?? ""}: ${error.message}${check}`,
      undefined,
      error,
    );
  }
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const detail =
    error instanceof Error
      ? `${error.message}${typeof cause?.code === "string" ? ` (${cause.code})` : ""}`
      : String(error);
  return new OidcFailure("unreachable", detail, undefined, error);
}

/**
 * The host as an OpenID Connect relying party, through openid-client: it discovers the provider
 * (once, again after a failure), builds the authorization URL with `state`, `nonce` and PKCE
 * S256, and finishes the flow with the code grant, whose ID token the library validates
 * (signature, issuer, audience, expiry, nonce).
 */
export class OidcRelyingParty {
  private readonly options: CheckedOidcOptions;
  private readonly logger: Logger;
  private configuration: Promise<client.Configuration> | null = null;

  /**
   * @param options - the checked settings.
   * @param logger - where discovery is logged.
   */
  constructor(options: CheckedOidcOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
  }

  /** The provider's configuration, discovered at the first use; a failure is retried next time. */
  private discovered(): Promise<client.Configuration> {
    if (this.configuration === null) {
      const { issuer, clientId, clientSecret, insecureLoopback } = this.options;
      const found = client
        .discovery(
          issuer,
          clientId,
          clientSecret === undefined
            ? { token_endpoint_auth_method: "none" }
            : { client_secret: clientSecret },
          clientSecret === undefined ? client.None() : client.ClientSecretPost(clientSecret),
          // Plain http only for a provider on loopback (tests, a local provider).
          insecureLoopback ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .then((configuration) => {
          this.logger.info(
            { issuer: configuration.serverMetadata().issuer },
            "Discovered the OpenID provider.",
          );
          return configuration;
        });
      found.catch(() => {
        if (this.configuration === found) this.configuration = null;
      });
      this.configuration = found;
    }
    return this.configuration.catch((error: unknown) => {
      throw asFailure(error);
    });
  }

  /**
   * Starts a sign-in.
   *
   * @param redirectUri - the host's `/auth/callback`.
   * @param state - the flow's random `state`.
   * @param anotherAccount - ask the provider to sign in again (`prompt=login`), so a person
   *   refused here can choose another account.
   * @returns the provider's authorization URL and the secrets to keep until the answer.
   * @throws {OidcFailure} `unreachable` when the provider cannot be discovered.
   */
  async start(
    redirectUri: string,
    state: string,
    anotherAccount = false,
  ): Promise<{ url: URL; secrets: OidcFlowSecrets }> {
    const configuration = await this.discovered();
    const codeVerifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.options.scope,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      ...(anotherAccount ? { prompt: "login" } : {}),
    });
    return { url, secrets: { nonce, codeVerifier } };
  }

  /**
   * Finishes a sign-in: checks the provider's answer, exchanges the code and validates the ID
   * token.
   *
   * @param currentUrl - the callback URL as the provider sent the browser to it.
   * @param state - the `state` the flow started with.
   * @param secrets - the nonce and PKCE verifier kept since the start.
   * @returns the ID token's claims.
   * @throws {OidcFailure} `refused`, `invalid` or `unreachable`.
   */
  async finish(currentUrl: URL, state: string, secrets: OidcFlowSecrets): Promise<OidcClaims> {
    const configuration = await this.discovered();
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedNonce: secrets.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (claims === undefined) throw new OidcFailure("invalid", "The answer has no ID token.");
      // Many providers keep the profile claims (email, name, groups) out of the ID token of the
      // code flow and answer them at the userinfo endpoint, for the token's own `sub` only.
      if (configuration.serverMetadata().userinfo_endpoint === undefined) {
        return claims as OidcClaims;
      }
      const profile = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      return { ...profile, ...claims } as OidcClaims;
    } catch (error) {
      throw asFailure(error);
    }
  }

  /**
   * Where to send the browser to end the person's sign-in at the provider too.
   *
   * @param postLogoutRedirectUri - where the provider sends the browser back afterwards.
   * @returns the provider's end-session URL, or null when it has none (or cannot be reached).
   */
  async endSessionUrl(postLogoutRedirectUri: string): Promise<URL | null> {
    let configuration: client.Configuration;
    try {
      configuration = await this.discovered();
    } catch (error) {
      this.logger.warn(
        { err: asFailure(error).message },
        "Signed out here; the OpenID provider could not be reached to sign out there too.",
      );
      return null;
    }
    if (configuration.serverMetadata().end_session_endpoint === undefined) return null;
    return client.buildEndSessionUrl(configuration, {
      client_id: this.options.clientId,
      post_logout_redirect_uri: postLogoutRedirectUri,
    });
  }
}
