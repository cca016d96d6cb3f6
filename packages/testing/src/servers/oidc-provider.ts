// A real OpenID provider for tests: `oidc-provider` (a certified OpenID Connect implementation)
// on 127.0.0.1 and a port of its own, with the clients and accounts a test names, a one-field
// sign-in form, consent granted for every client (they are all the operator's own), and
// RP-initiated logout. One fault can be injected: ID tokens of a client issued for another
// audience, as a provider that mixes clients up would.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types, and every program that compiles this file (the host's tests, e2e) needs them
/// <reference path="./oidc-provider-module.d.ts" />
import { errorMessage } from "@mcp-chat-host/protocol";
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { escapeHtml, formBody, page } from "./html-page";

/** A client the provider knows (the host under test is one). */
export interface OidcTestClient {
  clientId: string;
  /** None: a public client (token endpoint auth `none`, PKCE only). */
  clientSecret?: string;
  /** Where the provider may send the browser back (`http://127.0.0.1:<port>/auth/callback`). */
  redirectUris: string[];
  /** Where the provider may send the browser after a logout. */
  postLogoutRedirectUris?: string[];
  /** Fault: ID tokens for this client carry this `aud` instead of its id. */
  idTokenAudience?: string;
}

/** A person who can sign in at the provider: the form's `login` is their `sub`. */
export interface OidcTestAccount {
  login: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[];
}

/** Options of {@link startOidcProvider}. */
export interface OidcProviderOptions {
  clients: OidcTestClient[];
  accounts: OidcTestAccount[];
  /** The port; default any free one. */
  port?: number;
}

/** A running test provider. */
export interface RunningOidcProvider {
  /** `http://127.0.0.1:<port>` (discovery at `/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly port: number;
  /** Every sign-in form submitted, by login, in order (what a test can wait on). */
  readonly signIns: string[];
  /** Stops listening and cuts open connections. */
  stop(): Promise<void>;
}

/**
 * Starts the provider on 127.0.0.1. Its sign-in page (`/interaction/<uid>`) has one field,
 * `login` (label "Account"), and a "Sign in" button; an unknown login is shown the form again.
 *
 * @param options - the clients, the accounts, the port.
 * @returns the running provider.
 */
export async function startOidcProvider(
  options: OidcProviderOptions,
): Promise<RunningOidcProvider> {
  const accounts = new Map(options.accounts.map((account) => [account.login, account]));
  const signIns: string[] = [];
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (
    _request,
    response,
  ) => {
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
    kid: "test-key",
    use: "sig",
    alg: "RS256",
  };

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.clientSecret === undefined
        ? { token_endpoint_auth_method: "none" }
        : { client_secret: client.clientSecret, token_endpoint_auth_method: "client_secret_post" }),
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
      response_types: ["code"],
      grant_types: ["authorization_code"],
    })),
    jwks: { keys: [signingKey] },
    // Lifetimes of its own (in seconds), so the provider does not warn about its defaults.
    ttl: { Interaction: 600, Grant: 3_600, Session: 3_600, AccessToken: 600, IdToken: 600 },
    cookies: { keys: ["oidc-test-provider-cookie-key"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
      groups: ["groups"],
    },
    scopes: ["openid", "email", "profile", "groups"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(context: { body: string }, form: string) {
          context.body = page(
            "Sign out of the test provider?",
            `${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
          );
        },
      },
    },
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount(_context: unknown, id: string) {
      const account = accounts.get(id);
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          ...(account.email === undefined ? {} : { email: account.email }),
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
          ...(account.name === undefined ? {} : { name: account.name }),
          ...(account.groups === undefined ? {} : { groups: account.groups }),
        }),
      };
    },
    // Every client is the operator's own: consent is granted for what it asks.
    async loadExistingGrant(context: ProviderContext) {
      const oidc = context.oidc;
      const grantId =
        oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId !== undefined) {
        const found = await oidc.provider.Grant.find(grantId);
        if (found !== undefined) return found;
      }
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
  });

  const wrongAudience = new Map(
    options.clients.flatMap((client) =>
      client.idTokenAudience === undefined ? [] : [[client.clientId, client.idTokenAudience]],
    ),
  );
  if (wrongAudience.size > 0) {
    // The fault: the ID token is signed by the provider's real key for another audience.
    const issue = provider.IdToken.prototype.issue;
    provider.IdToken.prototype.issue = async function (
      this: IdTokenLike,
      issueOptions: { use?: string },
    ) {
      const audience = wrongAudience.get(this.client.clientId);
      if (issueOptions.use !== "idtoken" || audience === undefined) {
        return issue.call(this, issueOptions);
      }
      const real = this.client;
      this.client = new Proxy(real, {
        get: (target, property) =>
          property === "clientId" ? audience : Reflect.get(target, property),
      });
      try {
        return await issue.call(this, issueOptions);
      } finally {
        this.client = real;
      }
    };
  }

  const callback = provider.callback();
  handler = (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    const match = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (match === null) {
      callback(request, response);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (details.uid !== match[1]) throw new Error("Interaction mismatch.");
        const form = (notice: string) =>
          page(
            "Sign in to the test provider",
            `${notice}<form method="post" action="/interaction/${escapeHtml(details.uid)}"><label>Account <input name="login" autofocus></label> <button type="submit">Sign in</button></form>`,
          );
        if (request.method === "POST") {
          const login = (await formBody(request)).get("login") ?? "";
          signIns.push(login);
          if (accounts.has(login)) {
            await provider.interactionFinished(
              request,
              response,
              { login: { accountId: login } },
              { mergeWithLastSubmission: false },
            );
            return;
          }
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(form(`<p role="alert">No account ${escapeHtml(login)}.</p>`));
          return;
        }
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(form(""));
      } catch (error) {
        response.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
        response.end(`The sign-in could not go on: ${errorMessage(error)}`);
      }
    })();
  };

  return {
    issuer,
    port,
    signIns,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The parts of oidc-provider's koa context the grant loader reads. */
interface ProviderContext {
  oidc: {
    client: { clientId: string };
    session: { accountId: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    provider: {
      Grant: {
        new (fields: { clientId: string; accountId: string }): {
          addOIDCScope(scope: string): void;
          save(): Promise<string>;
        };
        find(id: string): Promise<unknown>;
      };
    };
  };
}

/** What the ID token's `issue` sees of itself. */
interface IdTokenLike {
  client: { clientId: string };
}
