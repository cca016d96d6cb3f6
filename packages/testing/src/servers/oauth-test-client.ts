// An in-memory OAuth client provider for the SDK client, and the first sign-in through a
// transport's 401, for the tests of the OAuth test servers.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { signInWithFetch } from "./sign-in-with-fetch";

/** The redirect URI the test client registers (nothing listens: the sign-in stops before it). */
export const redirectUrl = "http://127.0.0.1:9/oauth/callback";

/** An OAuth client provider that keeps everything in memory, as a host's would per server. */
export class MemoryProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  stored: StoredOAuthTokens | undefined;
  verifier = "";
  discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | undefined;
  sentState = "";
  readonly redirectUrl = redirectUrl;

  readonly #namesGrantTypes: boolean;

  /**
   * @param client - a client registered beforehand; none: it registers itself (RFC 7591).
   * @param namesGrantTypes - whether the metadata names `refresh_token` among its grant types,
   *   which makes the SDK add `offline_access` to the scope it asks for; default true.
   */
  constructor(client?: StoredOAuthClientInformation, namesGrantTypes = true) {
    this.client = client;
    this.#namesGrantTypes = namesGrantTypes;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "OAuth servers test",
      redirect_uris: [redirectUrl],
      ...(this.#namesGrantTypes ? { grant_types: ["authorization_code", "refresh_token"] } : {}),
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state(): string {
    this.sentState = randomUUID();
    return this.sentState;
  }
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }
  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.client = information;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.stored = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
}

/**
 * Signs in from scratch: connects, takes the 401, discovers, registers, signs in and consents
 * with fetch, checks `state`, and exchanges the code.
 *
 * @param mcpUrl - the protected MCP server.
 * @param login - the account.
 * @param provider - the client's provider; default a new one that registers itself.
 * @returns the provider holding the client registration and the tokens.
 */
export async function signInThroughTransport(
  mcpUrl: string,
  login: string,
  provider = new MemoryProvider(),
): Promise<MemoryProvider> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    throw new Error("The server let the client in without a token.");
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  if (provider.authorizationUrl === undefined) throw new Error("No authorization URL came.");
  const callback = await signInWithFetch(provider.authorizationUrl, login);
  if (callback.searchParams.get("state") !== provider.sentState) {
    throw new Error("The authorization response carries another state.");
  }
  await transport.finishAuth(callback.searchParams);
  await client.close();
  return provider;
}
