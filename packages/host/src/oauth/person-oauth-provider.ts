// The MCP SDK's OAuth client, for one person and one server: what `auth()` needs to discover the
// authorization server, register the host (Client ID Metadata Document, Dynamic Client
// Registration, or the operator's pre-registered client), build the authorization request with
// PKCE, `state` and `resource`, redeem the code and refresh. It works on a copy of the person's
// grant; `persist` keeps the grant whenever its tokens change. The page the person is sent to is
// checked before anything else sees it.
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import { checkOAuthUrl, type OAuthUrlPolicy } from "./oauth-url-policy";
import type { ServerGrant } from "./server-grant";

/** The name the host registers under at authorization servers. */
const OAUTH_CLIENT_NAME = "mcp-chat-host";

/** Options of a {@link PersonOAuthProvider}. */
export interface PersonOAuthProviderOptions {
  entry: McpRemoteServerConfig;
  /** `<host origin>/oauth/callback`. */
  redirectUrl: string;
  /** `<host origin>/oauth/client-metadata.json`, when the host's origin is https. */
  clientMetadataUrl?: string | undefined;
  /** The grant to work on (copied). */
  grant: ServerGrant;
  /** Keeps the grant after its tokens changed (a sign-in finished, a refresh). */
  persist: (grant: ServerGrant) => Promise<void>;
  policy: OAuthUrlPolicy;
  /** The `state` of the authorization request about to be made. */
  state?: string;
  /** The PKCE verifier of a flow that is being finished. */
  codeVerifier?: string;
  now: () => number;
}

/** The metadata the host registers with (and serves as its Client ID Metadata Document). */
export function hostClientMetadata(
  redirectUrl: string,
  scopes?: readonly string[],
): OAuthClientMetadata {
  return {
    client_name: OAUTH_CLIENT_NAME,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    // A browser-based host on a web origin (OpenID Connect Dynamic Registration §2).
    application_type: "web",
    ...(scopes === undefined || scopes.length === 0 ? {} : { scope: scopes.join(" ") }),
  } as OAuthClientMetadata;
}

/** One person's OAuth client for one server, for one run of the SDK's `auth()`. */
export class PersonOAuthProvider implements OAuthClientProvider {
  /** The grant as it stands after the run. */
  grant: ServerGrant;
  /** The page the person must visit, once the run asked for one. */
  authorizationUrl: URL | undefined;
  /** The host's Client ID Metadata Document, when it has one and no client is configured. */
  readonly clientMetadataUrl?: string;
  #codeVerifier: string | undefined;

  constructor(private readonly options: PersonOAuthProviderOptions) {
    this.grant = structuredClone(options.grant);
    this.#codeVerifier = options.codeVerifier;
    // The configured client wins; a metadata document is offered only on an https origin.
    if (options.entry.oauth?.clientId === undefined && options.clientMetadataUrl !== undefined) {
      this.clientMetadataUrl = options.clientMetadataUrl;
    }
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return hostClientMetadata(this.options.redirectUrl, this.options.entry.oauth?.scopes);
  }

  state(): string {
    if (this.options.state === undefined) throw new Error("No state was made for this sign-in.");
    return this.options.state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const configured = this.options.entry.oauth;
    if (configured?.clientId !== undefined) {
      return {
        client_id: configured.clientId,
        ...(configured.clientSecret === undefined
          ? {}
          : { client_secret: configured.clientSecret }),
        ...(this.grant.client?.issuer === undefined ? {} : { issuer: this.grant.client.issuer }),
      } as StoredOAuthClientInformation;
    }
    return this.grant.client;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    // The configured client's secret stays in the configuration; only the issuer stamp is kept.
    this.grant.client =
      this.options.entry.oauth?.clientId === undefined
        ? information
        : ({
            client_id: information.client_id,
            issuer: information.issuer,
          } as StoredOAuthClientInformation);
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.grant.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.grant.tokens = tokens;
    this.grant.obtainedAt = this.options.now();
    await this.options.persist(this.grant);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // The SDK refuses `javascript:` only; every other scheme, address and host is checked here.
    this.authorizationUrl = checkOAuthUrl(
      authorizationUrl,
      "sign-in page",
      this.options.entry.name,
      this.options.policy,
    );
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error("This sign-in has no PKCE verifier.");
    return this.#codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.grant.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.grant.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") {
      delete this.grant.tokens;
      delete this.grant.obtainedAt;
    }
    if (scope === "all" || scope === "client") delete this.grant.client;
    if (scope === "all" || scope === "discovery") delete this.grant.discovery;
    if (scope === "all" || scope === "verifier") this.#codeVerifier = undefined;
  }
}
