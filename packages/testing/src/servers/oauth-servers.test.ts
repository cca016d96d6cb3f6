// The test authorization server and the protected MCP server, joined by the real SDK client:
// discovery from a 401, registration, sign-in and consent by fetch, tokens for the resource,
// refresh rotation and reuse, revocation, and the faults a client must refuse.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  auth,
  type OAuthClientInformationMixed,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuthAuthorizationServer,
  type RunningOAuthAuthorizationServer,
} from "./oauth-authorization-server";
import { startProtectedMcpServer, type RunningProtectedMcpServer } from "./protected-mcp-server";
import { MemoryProvider, redirectUrl, signInThroughTransport } from "./oauth-test-client";
import { signInWithFetch } from "./sign-in-with-fetch";

let authorizationServer: RunningOAuthAuthorizationServer;
let mcpServer: RunningProtectedMcpServer;
let now = Date.now();

beforeAll(async () => {
  authorizationServer = await startOAuthAuthorizationServer({
    accounts: ["alice", "bob"],
    clients: [
      {
        clientId: "confidential-host",
        clientSecret: "confidential-host-secret",
        tokenEndpointAuthMethod: "client_secret_basic",
        redirectUris: [redirectUrl],
      },
    ],
  });
  mcpServer = await startProtectedMcpServer({
    authorizationServer,
    clock: () => now,
  });
  authorizationServer.addResource({
    url: mcpServer.resource,
    scopes: [...mcpServer.scopesSupported],
  });
});

afterAll(async () => {
  await mcpServer?.stop();
  await authorizationServer?.stop();
});

/** Connects a client: on a 401 the transport discovers, registers and asks for a redirect. */
async function connect(provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
    authProvider: provider,
    onInsufficientScope: "throw",
  });
  await client.connect(transport);
  return client;
}

/** The whole first sign-in at the shared MCP server. */
function signIn(login: string): Promise<MemoryProvider> {
  return signInThroughTransport(mcpServer.url, login);
}

/** A refresh at the token endpoint with a given refresh token, as the raw form the SDK sends. */
async function refreshWith(provider: MemoryProvider, refreshToken: string): Promise<Response> {
  return fetch(`${authorizationServer.issuer}/token`, {
    method: "POST",
    signal: AbortSignal.timeout(5_000),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: (provider.client as OAuthClientInformationMixed).client_id,
      resource: mcpServer.resource,
    }).toString(),
  });
}

describe("the test OAuth servers with the SDK client", { timeout: 20_000 }, () => {
  it("answers a request without a token with 401 and the metadata's URL", async () => {
    const response = await fetch(mcpServer.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${mcpServer.resourceMetadataUrl}", scope="mcp:use"`,
    );
    const metadata = (await (await fetch(mcpServer.resourceMetadataUrl)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      resource: mcpServer.url,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: ["mcp:use", "reports:read"],
    });
    const asMetadata = (await (
      await fetch(`${authorizationServer.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(asMetadata).toMatchObject({
      issuer: authorizationServer.issuer,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["openid", "offline_access", "mcp:use", "reports:read"],
    });
    expect(asMetadata.registration_endpoint).toEqual(expect.any(String));
    expect(asMetadata.revocation_endpoint).toEqual(expect.any(String));
    expect(asMetadata.introspection_endpoint).toBe(authorizationServer.introspectionEndpoint);
    expect(mcpServer.rejected.at(-1)).toEqual({ status: 401, reason: "missing" });
  });

  it("signs in from a 401: discovery, registration, sign-in, consent, a token for the resource", async () => {
    const provider = await signIn("alice");
    expect(authorizationServer.registrations.at(-1)).toMatchObject({
      redirect_uris: [redirectUrl],
      client_name: "OAuth servers test",
    });
    expect(authorizationServer.signIns.at(-1)).toBe("alice");
    expect(authorizationServer.tokenRequests.at(-1)).toMatchObject({
      grantType: "authorization_code",
      resource: mcpServer.resource,
      status: 200,
    });
    const accessToken = provider.stored?.access_token ?? "";
    const payload = JSON.parse(
      Buffer.from(accessToken.split(".")[1] ?? "", "base64url").toString("utf8"),
    ) as Record<string, unknown>;
    expect(payload).toMatchObject({ aud: mcpServer.resource, sub: "alice" });
    expect(String(payload.scope).split(" ")).toContain("mcp:use");
    expect(provider.stored?.refresh_token).toEqual(expect.any(String));

    const client = await connect(provider);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Signed in as alice" }]);
    expect(mcpServer.calls.at(-1)).toMatchObject({ tool: "whoami", subject: "alice" });
    const tools = await client.listTools();
    expect(tools.tools.find((tool) => tool.name === "whoami")?._meta).toMatchObject({
      ui: { resourceUri: "ui://protected/whoami.html" },
    });
    const prompt = await client.getPrompt({ name: "greeting", arguments: { name: "Ada" } });
    expect(JSON.stringify(prompt.messages)).toContain("Say hello to Ada.");
    const note = await client.readResource({ uri: "notes://welcome" });
    expect(JSON.stringify(note.contents)).toContain("Welcome to the protected server.");

    // Step-up: list_reports needs reports:read, which this token lacks.
    await expect(client.callTool({ name: "list_reports", arguments: {} })).rejects.toThrow();
    expect(mcpServer.rejected.at(-1)).toEqual({ status: 403, reason: "scope" });
    await client.close();
  });

  it("answers a call without the extra scope with 403 insufficient_scope and the wider scope", async () => {
    const provider = await signIn("alice");
    const response = await fetch(mcpServer.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${provider.stored?.access_token ?? ""}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_reports", arguments: {} },
      }),
    });
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp:use reports:read"');
    expect(challenge).toContain(`resource_metadata="${mcpServer.resourceMetadataUrl}"`);
  });

  it("steps up: after a new consent for reports:read, list_reports answers", async () => {
    const provider = await signIn("alice");
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
      authProvider: provider,
    });
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await client.connect(transport);
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: "list_reports", arguments: {} })).rejects.toThrow();
    const authorizationUrl = provider.authorizationUrl as URL | undefined;
    expect(authorizationUrl?.searchParams.get("scope")?.split(" ")).toContain("reports:read");
    const callback = await signInWithFetch(authorizationUrl ?? "", "alice");
    await transport.finishAuth(callback.searchParams);
    await client.close();

    const again = await connect(provider);
    const result = await again.callTool({ name: "list_reports", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Quarterly report, Annual report" }]);
    expect(mcpServer.calls.at(-1)?.scopes).toEqual(
      expect.arrayContaining(["mcp:use", "reports:read"]),
    );
    await again.close();
  });

  it("rotates refresh tokens and refuses a reused one (and then the whole grant)", async () => {
    const provider = await signIn("bob");
    const first = provider.stored?.refresh_token ?? "";
    expect(await auth(provider, { serverUrl: mcpServer.url })).toBe("AUTHORIZED");
    const second = provider.stored?.refresh_token ?? "";
    expect(second).not.toBe(first);
    expect(authorizationServer.tokenRequests.at(-1)).toMatchObject({
      grantType: "refresh_token",
      status: 200,
    });

    const reused = await refreshWith(provider, first);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    expect(authorizationServer.tokenRequests.at(-1)).toMatchObject({
      grantType: "refresh_token",
      status: 400,
    });
    // Reuse detection ends the grant: the newest refresh token is dead too.
    expect((await refreshWith(provider, second)).status).toBe(400);
  });

  it("revokes a refresh token at the revocation endpoint", async () => {
    const provider = await signIn("alice");
    const refreshToken = provider.stored?.refresh_token ?? "";
    const clientId = (provider.client as OAuthClientInformationMixed).client_id;
    const revoked = await fetch(`${authorizationServer.issuer}/token/revocation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: refreshToken,
        token_type_hint: "refresh_token",
        client_id: clientId,
      }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(authorizationServer.revocations.at(-1)).toMatchObject({
      tokenTypeHint: "refresh_token",
      clientId,
      status: 200,
    });
    expect((await refreshWith(provider, refreshToken)).status).toBe(400);
  });

  it("makes refresh fail for every grant of an account after revokeAllFor", async () => {
    const provider = await signIn("bob");
    await authorizationServer.revokeAllFor("bob");
    const refused = await refreshWith(provider, provider.stored?.refresh_token ?? "");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a token issued for another audience, and an expired one", async () => {
    const provider = await signIn("alice");
    authorizationServer.setFaults({ audienceOverride: "http://127.0.0.1:1/other" });
    try {
      expect(await auth(provider, { serverUrl: mcpServer.url })).toBe("AUTHORIZED");
    } finally {
      authorizationServer.setFaults({});
    }
    const call = (token: string) =>
      fetch(mcpServer.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    const wrongAudience = await call(provider.stored?.access_token ?? "");
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(mcpServer.rejected.at(-1)).toEqual({ status: 401, reason: "audience" });

    authorizationServer.setAccessTokenTtl(60);
    try {
      expect(await auth(provider, { serverUrl: mcpServer.url })).toBe("AUTHORIZED");
    } finally {
      authorizationServer.setAccessTokenTtl(600);
    }
    now += 120_000;
    try {
      expect((await call(provider.stored?.access_token ?? "")).status).toBe(401);
      expect(mcpServer.rejected.at(-1)).toEqual({ status: 401, reason: "expired" });
    } finally {
      now = Date.now();
    }
    expect((await call("not-a-token")).status).toBe(401);
    expect(mcpServer.rejected.at(-1)).toEqual({ status: 401, reason: "inactive" });
  });

  it("serves a pre-registered confidential client (client_secret_basic), without registration", async () => {
    const registrations = authorizationServer.registrations.length;
    const provider = await signInThroughTransport(
      mcpServer.url,
      "alice",
      new MemoryProvider({
        client_id: "confidential-host",
        client_secret: "confidential-host-secret",
        token_endpoint_auth_method: "client_secret_basic",
        issuer: authorizationServer.issuer,
      }),
    );
    expect(authorizationServer.registrations).toHaveLength(registrations);
    expect(authorizationServer.tokenRequests.at(-1)).toMatchObject({
      grantType: "authorization_code",
      clientId: "confidential-host",
      status: 200,
    });
    expect(provider.stored?.refresh_token).toEqual(expect.any(String));
  });

  it("issues a refresh token when offline_access was not asked for", async () => {
    const provider = new MemoryProvider(undefined, false);
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
      authProvider: provider,
    });
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const scope = provider.authorizationUrl?.searchParams.get("scope");
    expect(scope).toBe("mcp:use");
    await transport.finishAuth(
      (await signInWithFetch(provider.authorizationUrl ?? "", "alice")).searchParams,
    );
    expect(provider.stored?.refresh_token).toEqual(expect.any(String));
  });

  it("refuses an unknown login on the sign-in page", async () => {
    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
      authProvider: provider,
    });
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(signInWithFetch(provider.authorizationUrl ?? "", "mallory")).rejects.toThrow(
      "The authorization server did not accept the login mallory.",
    );
  });

  it("shows a request it refuses as an escaped page, and the sign-in helper says so", async () => {
    const url = new URL(`${authorizationServer.issuer}/auth`);
    url.searchParams.set("client_id", "<script>alert(1)</script>");
    url.searchParams.set("response_type", "code");
    url.searchParams.set("redirect_uri", redirectUrl);
    const response = await fetch(url);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain("<script>");
    await expect(signInWithFetch(url, "alice")).rejects.toThrow(
      "The authorization server answered 400 at /auth.",
    );
  });

  it("ends the flow with access_denied when the account holder presses Deny", async () => {
    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
      authProvider: provider,
    });
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await signInWithFetch(provider.authorizationUrl ?? "", "alice", {
      consent: "deny",
    });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
  });

  it("carries the injected faults: a hostile authorization endpoint, a wrong iss and state", async () => {
    for (const hostile of [
      "javascript:alert(1)",
      "file:///etc/passwd",
      "http://0.0.0.0:1/authorize",
    ]) {
      authorizationServer.setFaults({ authorizationEndpoint: hostile });
      try {
        for (const path of ["oauth-authorization-server", "openid-configuration"]) {
          const metadata = (await (
            await fetch(`${authorizationServer.issuer}/.well-known/${path}`)
          ).json()) as Record<string, unknown>;
          expect(metadata.authorization_endpoint).toBe(hostile);
        }
      } finally {
        authorizationServer.setFaults({});
      }
    }

    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), {
      authProvider: provider,
    });
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    authorizationServer.setFaults({ wrongIssInResponse: true, wrongStateInResponse: true });
    let callback: URL;
    try {
      callback = await signInWithFetch(provider.authorizationUrl ?? "", "alice");
    } finally {
      authorizationServer.setFaults({});
    }
    expect(callback.searchParams.get("iss")).toBe("https://attacker.example");
    expect(callback.searchParams.get("state")).not.toBe(provider.sentState);
    // The SDK refuses the mixed-up issuer before it redeems the code.
    await expect(transport.finishAuth(callback.searchParams)).rejects.toThrow();
  });
});
