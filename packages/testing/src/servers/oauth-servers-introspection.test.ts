// The authorization server with opaque access tokens: the protected MCP server checks them at
// the introspection endpoint, so revoking an account's grants ends its access tokens too.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuthAuthorizationServer,
  type RunningOAuthAuthorizationServer,
} from "./oauth-authorization-server";
import { signInThroughTransport } from "./oauth-test-client";
import { startProtectedMcpServer, type RunningProtectedMcpServer } from "./protected-mcp-server";

describe("opaque access tokens, checked by introspection", { timeout: 20_000 }, () => {
  let opaqueServer: RunningOAuthAuthorizationServer;
  let introspectedServer: RunningProtectedMcpServer;

  beforeAll(async () => {
    opaqueServer = await startOAuthAuthorizationServer({
      accessTokenFormat: "opaque",
      clientIdMetadataDocuments: true,
    });
    introspectedServer = await startProtectedMcpServer({ authorizationServer: opaqueServer });
    opaqueServer.addResource({
      url: introspectedServer.resource,
      scopes: [...introspectedServer.scopesSupported],
    });
  });

  afterAll(async () => {
    await introspectedServer?.stop();
    await opaqueServer?.stop();
  });

  it("accepts an active token and refuses it once the account's grants are revoked", async () => {
    const provider = await signInThroughTransport(introspectedServer.url, "carol");
    const accessToken = provider.stored?.access_token ?? "";
    expect(accessToken.split(".")).toHaveLength(1);
    const client = new Client({ name: "oauth-servers-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(introspectedServer.url), {
        authProvider: provider,
      }),
    );
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Signed in as carol" }]);
    await client.close();

    await opaqueServer.revokeAllFor("carol");
    const refused = await fetch(introspectedServer.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(introspectedServer.rejected.at(-1)).toEqual({ status: 401, reason: "inactive" });
  });

  it("publishes Client ID Metadata Document support when asked to", async () => {
    const metadata = (await (
      await fetch(`${opaqueServer.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });
});
