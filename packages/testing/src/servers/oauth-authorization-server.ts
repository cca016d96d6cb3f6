// A real OAuth 2.1 authorization server for MCP tests: `oidc-provider` on 127.0.0.1, configured as
// the MCP authorization spec asks: PKCE S256 required, resource indicators (RFC 8707) with access
// tokens for the named resource only, Dynamic Client Registration (open), revocation,
// introspection, rotating refresh tokens (a reused one is refused and ends its grant), `iss` in
// the authorization response (RFC 9207), metadata at both well-known paths. Its own sign-in and
// consent pages; what happened, for tests to read; faults a hostile or broken server would show.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types, and every program that compiles this file (the host's tests, e2e) needs them
/// <reference path="./oidc-provider-module.d.ts" />
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { errors } from "oidc-provider";
import { escapeHtml, page } from "./html-page";
import { serveInteraction } from "./oauth-interaction";
import {
  aroundProviderRoutes,
  type RevocationRecord,
  type TokenRequestRecord,
} from "./oauth-provider-middleware";

/** A protected resource the server issues tokens for (an MCP server's URL and its scopes). */
export interface OAuthTestResource {
  /** The resource indicator, exactly as clients send it (`http://127.0.0.1:<port>/mcp`). */
  url: string;
  /** The scopes a token for it may carry. */
  scopes: string[];
}

/** A client registered before the test runs (others register themselves, RFC 7591). */
export interface OAuthTestClient {
  clientId: string;
  /** None: a public client (token endpoint auth `none`, PKCE only). */
  clientSecret?: string;
  /** How a confidential client authenticates; default `client_secret_post`. */
  tokenEndpointAuthMethod?: "client_secret_post" | "client_secret_basic";
  redirectUris: string[];
}

/** Misbehaviour to inject, for tests of a client's defences. */
export interface OAuthServerFaults {
  /** The metadata publishes this as `authorization_endpoint` (e.g. `javascript:alert(1)`). */
  authorizationEndpoint?: string;
  /** The authorization response carries `iss=https://attacker.example`. */
  wrongIssInResponse?: boolean;
  /** The authorization response carries another `state` than the client sent. */
  wrongStateInResponse?: boolean;
  /** Access tokens carry this `aud` instead of the resource asked for. */
  audienceOverride?: string;
}

/** Options of {@link startOAuthAuthorizationServer}. */
export interface OAuthAuthorizationServerOptions {
  /** The resources tokens may be asked for; more can be added later with `addResource`. */
  resources?: OAuthTestResource[];
  clients?: OAuthTestClient[];
  /** The logins that may sign in; default any non-empty login (it becomes the token's `sub`). */
  accounts?: string[];
  /** Lifetime of access tokens; default 600. */
  accessTokenTtlSeconds?: number;
  /**
   * `jwt` (default): signed JWT access tokens a resource server checks with the JWKS (oidc-provider
   * refuses to introspect or revoke those); `opaque`: tokens only introspection can check.
   */
  accessTokenFormat?: "jwt" | "opaque";
  /** Client ID Metadata Documents (draft-02; oidc-provider accepts only `https:` client ids). */
  clientIdMetadataDocuments?: boolean;
  faults?: OAuthServerFaults;
  /** The port; default any free one. */
  port?: number;
}

/** A running test authorization server. */
export interface RunningOAuthAuthorizationServer {
  /** `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly port: number;
  /** `<issuer>/token/introspection` (RFC 7662). */
  readonly introspectionEndpoint: string;
  /** A confidential client made for resource servers, to call the introspection endpoint. */
  readonly introspectionClient: { clientId: string; clientSecret: string };
  readonly tokenRequests: TokenRequestRecord[];
  readonly revocations: RevocationRecord[];
  /** Dynamic Client Registration requests: the client metadata as received. */
  readonly registrations: Record<string, unknown>[];
  /** Every sign-in form submitted, by login, in order. */
  readonly signIns: string[];
  /** Tokens may be asked for this resource from now on. */
  addResource(resource: OAuthTestResource): void;
  /** Revokes every grant of this account: its refresh tokens and stored tokens stop working. */
  revokeAllFor(login: string): Promise<void>;
  /** Lifetime of access tokens issued from now on. */
  setAccessTokenTtl(seconds: number): void;
  /** Replaces the faults. */
  setFaults(faults: OAuthServerFaults): void;
  /** Stops listening and cuts open connections. */
  stop(): Promise<void>;
}

/**
 * Starts the authorization server on 127.0.0.1. Scopes: `openid`, `offline_access` and every
 * resource's scopes. Refresh tokens are issued to every client allowed the `refresh_token` grant
 * (with or without `offline_access`), rotate on each use, and outlive the sign-in session.
 *
 * @param options - resources, clients, accounts, lifetimes, faults, the port.
 * @returns the running server.
 */
export async function startOAuthAuthorizationServer(
  options: OAuthAuthorizationServerOptions = {},
): Promise<RunningOAuthAuthorizationServer> {
  const resources = new Map((options.resources ?? []).map((resource) => [resource.url, resource]));
  const accounts = options.accounts === undefined ? undefined : new Set(options.accounts);
  let accessTokenTtl = options.accessTokenTtlSeconds ?? 600;
  let faults: OAuthServerFaults = { ...options.faults };
  const tokenRequests: TokenRequestRecord[] = [];
  const revocations: RevocationRecord[] = [];
  const registrations: Record<string, unknown>[] = [];
  const signIns: string[] = [];
  const grantsByAccount = new Map<string, Set<string>>();
  const introspectionClient = {
    clientId: "resource-server-introspection",
    clientSecret: randomBytes(24).toString("base64url"),
  };

  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => {
    response.statusCode = 503;
    response.end();
  };
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = {
    ...privateKey.export({ format: "jwk" }),
    kid: "as-key",
    use: "sig",
    alg: "RS256",
  };

  const provider = new Provider(issuer, {
    clients: [
      ...(options.clients ?? []).map((client) => ({
        client_id: client.clientId,
        ...(client.clientSecret === undefined
          ? { token_endpoint_auth_method: "none" }
          : {
              client_secret: client.clientSecret,
              token_endpoint_auth_method: client.tokenEndpointAuthMethod ?? "client_secret_post",
            }),
        redirect_uris: client.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code", "refresh_token"],
      })),
      {
        client_id: introspectionClient.clientId,
        client_secret: introspectionClient.clientSecret,
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: [],
        response_types: [],
        grant_types: [],
      },
    ],
    jwks: { keys: [signingKey] },
    ttl: {
      // A resource's own lifetime (from getResourceServerInfo) is read here, as the default does.
      AccessToken: (_context: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      AuthorizationCode: 60,
      Grant: 86_400,
      IdToken: 600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3_600,
    },
    cookies: { keys: [randomBytes(24).toString("base64url")] },
    claims: { openid: ["sub"] },
    scopes: ["openid", "offline_access"],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    // MCP clients rarely ask for offline_access: a client allowed the grant gets a refresh token.
    issueRefreshToken: (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    expiresWithSession: () => false,
    clientBasedCORS: () => true,
    findAccount: (_context: unknown, id: string) =>
      accounts === undefined || accounts.has(id)
        ? { accountId: id, claims: () => ({ sub: id }) }
        : undefined,
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    renderError(context: { type: string; body: string }, out: Record<string, unknown>) {
      context.type = "html";
      context.body = page(
        "The request could not go on",
        `<p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ""))}</p>`,
      );
    },
    features: {
      devInteractions: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        idFactory(context: { oidc: { body: Record<string, unknown> } }) {
          registrations.push(structuredClone(context.oidc.body));
          // A registered `scope` would become an allow-list and refuse a later step-up to a
          // scope the client did not name; like most MCP authorization servers, keep none.
          delete context.oidc.body.scope;
          return randomUUID();
        },
      },
      revocation: {
        enabled: true,
        allowedPolicy: (
          _context: unknown,
          client: { clientId: string },
          token: { clientId: string },
        ) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        allowedPolicy: (
          _context: unknown,
          client: { clientId: string; clientAuthMethod: string },
          token: { clientId: string },
        ) => client.clientAuthMethod !== "none" || token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo(_context: unknown, indicator: string) {
          const resource = resources.get(indicator);
          if (resource === undefined) throw new errors.InvalidTarget();
          return {
            scope: resource.scopes.join(" "),
            audience: faults.audienceOverride ?? indicator,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: options.accessTokenFormat ?? "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
      clientIdMetadataDocument: {
        enabled: options.clientIdMetadataDocuments === true,
        ack: "draft-02",
      },
    },
  });

  // The authorization response's faults: `out` is what the redirect will carry.
  provider.on("authorization.success", (_context: never, out: Record<string, unknown>) => {
    if (faults.wrongIssInResponse === true) out.iss = "https://attacker.example";
    if (faults.wrongStateInResponse === true) out.state = "not-the-state-you-sent";
  });

  provider.use(
    aroundProviderRoutes({
      scopes: () => [...resources.values()].flatMap((resource) => resource.scopes),
      authorizationEndpoint: () => faults.authorizationEndpoint,
      tokenRequests,
      revocations,
    }),
  );

  const callback = provider.callback();
  const hooks = {
    knows: (login: string) => login !== "" && (accounts === undefined || accounts.has(login)),
    signedIn: (login: string) => signIns.push(login),
    granted(accountId: string, grantId: string) {
      const grants = grantsByAccount.get(accountId) ?? new Set<string>();
      grants.add(grantId);
      grantsByAccount.set(accountId, grants);
    },
  };
  handler = (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      // RFC 8414's path; the document is the same as OpenID discovery's.
      request.url = `/.well-known/openid-configuration${url.search}`;
    }
    const match = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (match?.[1] === undefined) {
      callback(request, response);
      return;
    }
    void serveInteraction(provider, request, response, match[1], hooks);
  };

  return {
    issuer,
    port,
    introspectionEndpoint: `${issuer}/token/introspection`,
    introspectionClient,
    tokenRequests,
    revocations,
    registrations,
    signIns,
    addResource(resource) {
      resources.set(resource.url, resource);
    },
    async revokeAllFor(login) {
      for (const grantId of grantsByAccount.get(login) ?? []) {
        await Promise.all([
          provider.AccessToken.revokeByGrantId(grantId),
          provider.RefreshToken.revokeByGrantId(grantId),
          provider.AuthorizationCode.revokeByGrantId(grantId),
          provider.Grant.adapter.destroy(grantId),
        ]);
      }
      grantsByAccount.delete(login);
    },
    setAccessTokenTtl(seconds) {
      accessTokenTtl = seconds;
    },
    setFaults(next) {
      faults = { ...next };
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
