// What the test authorization server adds around oidc-provider's routes: the metadata's scopes
// (those of resources added later too) and the hostile-endpoint fault, and the records of every
// token and revocation request, succeeded or not, for tests to read.
import type { ProviderMiddlewareContext } from "oidc-provider";

/** One POST to the token endpoint, succeeded or not. */
export interface TokenRequestRecord {
  grantType: string;
  clientId: string | undefined;
  resource?: string;
  /** The HTTP status of the answer. */
  status: number;
  at: number;
}

/** One POST to the revocation endpoint. */
export interface RevocationRecord {
  tokenTypeHint?: string;
  clientId: string | undefined;
  status: number;
  at: number;
}

/** The client id of a token or revocation request: authenticated, in the body, or in Basic. */
function clientIdOf(context: ProviderMiddlewareContext): string | undefined {
  if (context.oidc?.client !== undefined) return context.oidc.client.clientId;
  const inBody = context.oidc?.body?.client_id;
  if (typeof inBody === "string") return inBody;
  const basic = /^Basic\s+(.+)$/i.exec(context.get("authorization"));
  if (basic?.[1] === undefined) return undefined;
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  return decodeURIComponent(decoded.slice(0, Math.max(0, decoded.indexOf(":"))));
}

function stringField(body: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === "string" ? value : undefined;
}

/** What the middleware reads and writes. */
export interface MiddlewareState {
  /** The resources' scopes, now. */
  scopes(): string[];
  /** The fault: the `authorization_endpoint` to publish instead of the real one. */
  authorizationEndpoint(): string | undefined;
  tokenRequests: TokenRequestRecord[];
  revocations: RevocationRecord[];
}

/**
 * Makes the koa middleware that runs around every route of the provider.
 *
 * @param state - the scopes, the fault, and where to record requests.
 * @returns the middleware, for `provider.use`.
 */
export function aroundProviderRoutes(
  state: MiddlewareState,
): (context: ProviderMiddlewareContext, next: () => Promise<void>) => Promise<void> {
  return async (context, next) => {
    await next();
    const route = context.oidc?.route;
    const body = context.oidc?.body;
    if (route === "discovery" && typeof context.body === "object" && context.body !== null) {
      const metadata = context.body as Record<string, unknown>;
      metadata.scopes_supported = [...new Set(["openid", "offline_access", ...state.scopes()])];
      const hostile = state.authorizationEndpoint();
      if (hostile !== undefined) metadata.authorization_endpoint = hostile;
    } else if (route === "token") {
      const resource = stringField(body, "resource");
      state.tokenRequests.push({
        grantType: stringField(body, "grant_type") ?? "",
        clientId: clientIdOf(context),
        ...(resource === undefined ? {} : { resource }),
        status: context.status,
        at: Date.now(),
      });
    } else if (route === "revocation") {
      const hint = stringField(body, "token_type_hint");
      state.revocations.push({
        ...(hint === undefined ? {} : { tokenTypeHint: hint }),
        clientId: clientIdOf(context),
        status: context.status,
        at: Date.now(),
      });
    }
  };
}
