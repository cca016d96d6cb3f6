// People sign in to a remote MCP server with their own account, against a real authorization
// server (oidc-provider: PKCE, resource indicators, registration, rotating refresh tokens,
// revocation) and a real MCP server that checks its bearer tokens (audience included). The
// browser's part is played by fetch: the popup's start page, the authorization server's own login
// and consent pages, the callback with the flow's cookie.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMcpConfig } from "@mcp-chat-host/connection";
import type { ServerStatus } from "@mcp-chat-host/protocol";
import {
  startOAuthAuthorizationServer,
  startPostgres,
  type RunningPostgres,
  startProtectedMcpServer,
  type RunningOAuthAuthorizationServer,
  type RunningProtectedMcpServer,
} from "@mcp-chat-host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import type { HostServerOptions } from "../src/host-server-options";
import type { SocketRequestError } from "../src/testing";
import { rawRequest } from "../src/testing/http-layer-support";
import {
  exchange,
  headerUsers,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
} from "./harness";
import {
  connectThroughBrowser as connectAs,
  serverStateOf,
  tabOf,
  type BrowserSignInOptions,
} from "./sign-in-support";

let authorization: RunningOAuthAuthorizationServer;
let notes: RunningProtectedMcpServer;
let hosts: TestHost[] = [];
let folder: string;
const keys = `test:${randomBytes(32).toString("base64")}`;
/** Moves the host's clock (not the servers'): a token "expires" without waiting. */
let clockOffset = 0;

beforeEach(async () => {
  authorization = await startOAuthAuthorizationServer({ accounts: ["ada", "bob"] });
  notes = await startProtectedMcpServer({ authorizationServer: authorization });
  authorization.addResource({ url: notes.resource, scopes: [...notes.scopesSupported] });
  folder = mkdtempSync(join(tmpdir(), "server-sign-in-"));
  clockOffset = 0;
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await notes.stop();
  await authorization.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A host whose chat uses the remote server "notes", for people told apart by a header. */
async function notesHost(options: HostServerOptions = {}): Promise<TestHost> {
  const host = await startHost({
    config: parseMcpConfig({ mcpServers: { notes: { url: notes.url } } }),
    auth: headerUsers,
    store: `sqlite:${join(folder, "host.db")}`,
    oauthCredentialKeys: keys,
    now: () => Date.now() + clockOffset,
    session(session) {
      mcpChatHost(session.chat(), ["notes"]);
    },
    ...options,
  });
  hosts.push(host);
  return host;
}

/** Waits for the state of "notes" in the person's tab. */
const stateOf = (client: TestClient, state: ServerStatus["state"]) =>
  serverStateOf(client, "notes", state);

/** Connects the person to "notes" as the browser would. */
const connectThroughBrowser = (client: TestClient, login: string, options?: BrowserSignInOptions) =>
  connectAs(client, "notes", login, options);

describe("signing in to a remote MCP server with one's own account", () => {
  it("connects through the authorization server's pages; the tools appear without a reload; a restart keeps it", async () => {
    let host = await notesHost();
    const ada = await tabOf(host, "ada");
    const needs = await stateOf(ada, "needs-sign-in");
    expect(needs).toMatchObject({ signIn: true, remote: true });
    expect(needs.reason).toBe(
      'Sign in to "notes" to use its tools: open Servers and choose Connect.',
    );

    const tools = ada.next("chat:tools", ({ tools: listed }) =>
      listed.some((tool) => tool.source === "notes"),
    );
    const finished = await connectThroughBrowser(ada, "ada", {
      scopeCheck: (url) => {
        // PKCE S256, state and the resource indicator are on the authorization request.
        expect(url.searchParams.get("code_challenge_method")).toBe("S256");
        expect(url.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
        expect(url.searchParams.get("resource")).toBe(notes.resource);
      },
    });
    expect(finished.status).toBe(200);
    expect(finished.page).toContain("You are signed in to &#34;notes&#34;.");
    expect(finished.page).toContain('<script src="/oauth/close.js"></script>');
    await tools;
    const connected = await stateOf(ada, "connected");
    expect(connected.issuer).toBe(authorization.issuer);
    expect(connected.scopes).toContain("mcp:use");
    // The host registered itself (Dynamic Client Registration) as a web client.
    expect(authorization.registrations[0]).toMatchObject({ application_type: "web" });
    // The token exchange named the resource too.
    expect(
      authorization.tokenRequests.find((request) => request.grantType === "authorization_code"),
    ).toMatchObject({
      resource: notes.resource,
      status: 200,
    });

    const reply = await exchange(ada, "chat-1", "/call whoami {}");
    expect(reply.text).toContain("Signed in as ada");
    expect(notes.calls.map((call) => call.subject)).toEqual(["ada"]);

    // The grant is sealed at rest: no token is readable in the database file.
    const grant = await host.server.store.getServerGrant("ada", "notes");
    expect(grant?.sealed).toMatch(/^v1\.test\./);
    const file = readFileSync(join(folder, "host.db")).toString("latin1");
    expect(file).not.toMatch(/eyJ[\w-]{20,}/);

    await host.close();
    hosts = [];
    host = await notesHost();
    const again = await tabOf(host, "ada");
    await stateOf(again, "connected");
    expect((await exchange(again, "chat-1", "/call whoami {}")).text).toContain("Signed in as ada");
    expect(authorization.signIns).toEqual(["ada"]);
  });

  it("keeps one person's sign-in from another on the same host", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    expect((await connectThroughBrowser(ada, "ada")).status).toBe(200);
    await stateOf(ada, "connected");

    const bob = await tabOf(host, "bob");
    const bobs = await stateOf(bob, "needs-sign-in");
    expect(bobs.scopes).toBeUndefined();
    expect(await host.server.store.getServerGrant("bob", "notes")).toBeNull();
    const reply = await exchange(bob, "chat-1", "/call whoami {}");
    expect(reply.text).not.toContain("Signed in as");
    expect(notes.calls.map((call) => call.subject)).toEqual([]);
    // Bob cannot open Ada's sealed grant as his own: it is sealed for her.
    const adas = await host.server.store.getServerGrant("ada", "notes");
    await host.server.store.saveServerGrant({ ...adas!, userId: "bob" });
    // A new tab: its session reads the (copied) row afresh rather than what Bob's first tab held.
    const stolen = await tabOf(host, "bob", "tab-bob-2");
    expect((await exchange(stolen, "chat-1", "/call whoami {}")).text).not.toContain(
      "Signed in as",
    );
    expect(notes.calls).toEqual([]);
  });

  it("refreshes an expired token once, and asks the person again when the refresh is refused", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    await connectThroughBrowser(ada, "ada");
    await stateOf(ada, "connected");
    expect((await exchange(ada, "chat-1", "/call whoami {}")).text).toContain("Signed in as ada");

    clockOffset = 20 * 60_000;
    expect((await exchange(ada, "chat-1", "/call whoami {}")).text).toContain("Signed in as ada");
    const refreshes = () =>
      authorization.tokenRequests.filter((request) => request.grantType === "refresh_token");
    expect(refreshes().map((request) => request.status)).toEqual([200]);

    await authorization.revokeAllFor("ada");
    clockOffset = 40 * 60_000;
    const changed = ada.next("servers:state", ({ servers }) =>
      servers.some((server) => server.name === "notes" && server.state === "needs-sign-in"),
    );
    await exchange(ada, "chat-1", "/call whoami {}");
    const { servers } = await changed;
    expect(servers.find((server) => server.name === "notes")?.reason).toBe(
      'Sign in to "notes" to use its tools: open Servers and choose Connect.',
    );
    expect(await host.server.store.getServerGrant("ada", "notes")).toBeNull();
    // The conversation is kept.
    expect((await ada.value("conversation:list", {})).length).toBe(1);
  });

  it("revokes on disconnect and forgets the grant", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    await connectThroughBrowser(ada, "ada");
    await stateOf(ada, "connected");
    const gone = await ada.value("server:disconnect", { name: "notes" });
    expect(gone).toEqual({
      disconnected: true,
      revoked: true,
    });
    expect(authorization.revocations.map((revocation) => revocation.status)).toContain(200);
    expect(await host.server.store.getServerGrant("ada", "notes")).toBeNull();
    await stateOf(ada, "needs-sign-in");
  });

  it("refuses a sign-in whose answer comes back with another issuer or another state", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    authorization.setFaults({ wrongIssInResponse: true });
    const mixedUp = await connectThroughBrowser(ada, "ada");
    expect(mixedUp.status).toBe(400);
    expect(mixedUp.page).toContain(
      "The answer to this sign-in came from another authorization server than the one &#34;notes&#34; uses, so it was refused.",
    );
    authorization.setFaults({ wrongStateInResponse: true });
    const otherState = await connectThroughBrowser(ada, "ada");
    expect(otherState.status).toBe(400);
    expect(otherState.page).toContain(
      "This sign-in was not started in this browser, or its answer was changed on the way",
    );
    expect(await host.server.store.getServerGrant("ada", "notes")).toBeNull();
  });

  it("says so when the person denies access", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    const denied = await connectThroughBrowser(ada, "ada", { consent: "deny" });
    expect(denied.page).toContain(
      "You did not allow access to &#34;notes&#34;, so nothing was connected.",
    );
  });

  it("refuses a hostile authorization endpoint before the person is sent anywhere", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    for (const endpoint of [
      "javascript:alert(1)",
      "file:///etc/passwd",
      "http://0.0.0.0:9/authorize",
      "http://attacker.example/authorize",
      `${host.origin}/oauth/callback`,
    ]) {
      authorization.setFaults({ authorizationEndpoint: endpoint });
      const error = await ada.value("server:connect", { name: "notes" }).then(
        () => null,
        (failure: SocketRequestError) => failure.wire,
      );
      expect(error?.message, endpoint).toMatch(
        /^The server "notes" gave (a sign-in page|authorization metadata) that this host will not use/,
      );
    }
    expect(await host.server.store.getServerGrant("ada", "notes")).toBeNull();
    await stateOf(ada, "needs-sign-in");
  });

  it("does not use a token issued for another resource", async () => {
    authorization.setFaults({ audienceOverride: "http://127.0.0.1:1/another-server" });
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    expect((await connectThroughBrowser(ada, "ada")).status).toBe(200);
    // The session connects again with the new token, which the server refuses.
    for (
      let attempt = 0;
      attempt < 50 && !notes.rejected.some((r) => r.reason === "audience");
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(notes.rejected.map((rejection) => rejection.reason)).toContain("audience");
    await exchange(ada, "chat-1", "/call whoami {}");
    expect(notes.calls).toEqual([]);
    const status = (await ada.value("servers:list", {})).find((server) => server.name === "notes");
    expect(status?.state).not.toBe("connected");
  });
});

describe("a tool that needs more access than the person granted", () => {
  it("says a tool needs more access than was granted", async () => {
    const host = await notesHost({
      config: parseMcpConfig({
        mcpServers: { notes: { url: notes.url, oauth: { scopes: ["mcp:use"] } } },
      }),
    });
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    const listed = ada.next("chat:tools", ({ tools }) =>
      tools.some((tool) => tool.name === "list_reports"),
    );
    await connectThroughBrowser(ada, "ada", {
      scopeCheck: (url) =>
        expect(url.searchParams.get("scope")?.split(" ")).not.toContain("reports:read"),
    });
    await listed;
    const reply = await exchange(ada, "chat-1", "/call list_reports {}");
    expect(reply.text).toContain('"notes" needs more access for that');
    expect(reply.text).toContain("reports:read");
    expect(notes.rejected.map((rejection) => rejection.reason)).toContain("scope");
  });
});

describe("two nodes on one database", () => {
  let postgres: RunningPostgres | undefined;
  afterEach(async () => {
    await postgres?.stop();
    postgres = undefined;
  });

  it("redeem a refresh token once when both need a new access token at the same moment", async () => {
    postgres = await startPostgres();
    const store = await postgres.createDatabase("sign_in_nodes");
    const first = await notesHost({ store, nodeId: "node-a" });
    const second = await notesHost({ store, nodeId: "node-b" });
    const adaHere = await tabOf(first, "ada");
    await stateOf(adaHere, "needs-sign-in");
    await connectThroughBrowser(adaHere, "ada");
    await stateOf(adaHere, "connected");
    const adaThere = await tabOf(second, "ada");
    await stateOf(adaThere, "connected");

    clockOffset = 20 * 60_000;
    const [here, there] = await Promise.all([
      exchange(adaHere, "chat-1", "/call whoami {}"),
      exchange(adaThere, "chat-1", "/call whoami {}"),
    ]);
    expect(here.text).toContain("Signed in as ada");
    expect(there.text).toContain("Signed in as ada");
    const refreshes = authorization.tokenRequests.filter(
      (request) => request.grantType === "refresh_token",
    );
    expect(refreshes.map((request) => request.status)).toEqual([200]);
  }, 60_000);
});

describe("a card of a server whose sign-in ended", () => {
  it("says the person must sign in again instead of breaking", async () => {
    const host = await notesHost();
    const ada = await tabOf(host, "ada");
    await stateOf(ada, "needs-sign-in");
    const listed = ada.next("chat:tools", ({ tools }) =>
      tools.some((tool) => tool.name === "whoami"),
    );
    await connectThroughBrowser(ada, "ada");
    await listed;
    const card = await openCard(ada, "chat-1", "whoami");
    await ada.value("card:attach", { instanceId: card.instanceId });
    expect(
      await ada.request("card:call-tool", {
        instanceId: card.instanceId,
        name: "whoami",
        arguments: {},
      }),
    ).toMatchObject({ ok: true });

    await ada.value("server:disconnect", { name: "notes" });
    await stateOf(ada, "needs-sign-in");
    const refused = await ada.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "whoami",
      arguments: {},
    });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.ok ? "" : refused.error.message).toContain('Sign in to "notes"');
  });
});

describe("the host's Client ID Metadata Document", () => {
  it("is served on an https public origin, naming the callback there, and not on plain http", async () => {
    const secure = await notesHost({ publicOrigin: "https://chat.example.test" });
    const answer = await rawRequest(secure.port, "/oauth/client-metadata.json", {
      headers: { host: "chat.example.test" },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      client_id: "https://chat.example.test/oauth/client-metadata.json",
      client_name: "mcp-chat-host",
      redirect_uris: ["https://chat.example.test/oauth/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      application_type: "web",
    });
    const plain = await notesHost();
    const none = await rawRequest(plain.port, "/oauth/client-metadata.json", {
      headers: { host: `127.0.0.1:${plain.port}` },
    });
    expect(none.status).toBe(404);
  });
});

describe("the sealing keys", () => {
  it("refuse to start with a key that is not 32 bytes, saying which setting and how to make one", async () => {
    const failed = await notesHost({ oauthCredentialKeys: "short:c2hvcnQ=" }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failed?.message).toBe(
      'The keys for people\'s sign-ins to remote MCP servers (OAUTH_CREDENTIAL_KEYS) are not usable: The credential key "short" is 5 bytes; AES-256-GCM needs 32. Give each as <id>:<32 random bytes in base64>, for example from `openssl rand -base64 32`.',
    );
    const unreadable = await notesHost({ oauthCredentialKeys: "no-colon-here" }).then(
      () => null,
      (error: Error) => error,
    );
    expect(unreadable?.message).toBe(
      'The keys for people\'s sign-ins to remote MCP servers (OAUTH_CREDENTIAL_KEYS) are not usable: Each credential key is written "<id>:<32 bytes in base64>", separated by commas.',
    );
  });
});
