// People add remote MCP servers of their own (connectors, `host.connectors`), against a real
// authorization server and a real MCP server that checks its bearer tokens: off unless the
// operator allows it, only addresses the operator's patterns allow and never a private one; an
// added server is the person's alone, signed in to with their own account, kept across a
// restart, and removing it revokes the grant and takes its tools away.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMcpConfig } from "@mcp-chat-host/connection";
import {
  startOAuthAuthorizationServer,
  startProtectedMcpServer,
  type RunningOAuthAuthorizationServer,
  type RunningProtectedMcpServer,
} from "@mcp-chat-host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import type { SocketRequestError } from "../src/testing";
import { exchange, headerUsers, startHost, type TestClient, type TestHost } from "./harness";
import { connectThroughBrowser, serverStateOf, tabOf } from "./sign-in-support";

let authorization: RunningOAuthAuthorizationServer;
let notes: RunningProtectedMcpServer;
let hosts: TestHost[] = [];
let folder: string;
const keys = `test:${randomBytes(32).toString("base64")}`;
const loopbackConnectors = {
  allow: ["http://127.0.0.1:*/*", "http://10.0.0.1/*"],
  allowLoopback: true,
};

beforeEach(async () => {
  authorization = await startOAuthAuthorizationServer({ accounts: ["ada", "bob"] });
  notes = await startProtectedMcpServer({ authorizationServer: authorization });
  authorization.addResource({ url: notes.resource, scopes: [...notes.scopesSupported] });
  folder = mkdtempSync(join(tmpdir(), "connectors-"));
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await notes.stop();
  await authorization.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A host with one chat and no configured server, `host.connectors` as given. */
async function connectorsHost(connectors?: unknown): Promise<TestHost> {
  const host = await startHost({
    config: parseMcpConfig({
      mcpServers: {},
      ...(connectors === undefined ? {} : { host: { connectors } }),
    }),
    auth: headerUsers,
    store: `sqlite:${join(folder, "host.db")}`,
    oauthCredentialKeys: keys,
    session(session) {
      mcpChatHost(session.chat(), []);
    },
  });
  hosts.push(host);
  return host;
}

/** The sentence a refused `connector:add` answers with. */
function refusalOf(client: TestClient, url: string): Promise<string | undefined> {
  return client.value("connector:add", { url }).then(
    () => undefined,
    (failure: SocketRequestError) => failure.wire.message,
  );
}

/** Waits for a server's state in the person's tab. */
const stateOf = serverStateOf;

describe("servers a person adds", () => {
  it("are off unless the operator allows them", async () => {
    const host = await connectorsHost();
    const ada = await tabOf(host, "ada");
    expect(await ada.value("connectors:policy", {})).toEqual({ allowed: false, patterns: [] });
    expect(await refusalOf(ada, notes.url)).toBe(
      "This host does not let people add servers of their own; ask its operator to add the server for everyone.",
    );
    expect(await host.server.store.listConnectors("ada")).toEqual([]);
  });

  it("refuse an address outside the operator's patterns, and a private one inside them", async () => {
    const host = await connectorsHost(loopbackConnectors);
    const ada = await tabOf(host, "ada");
    expect(await ada.value("connectors:policy", {})).toEqual({
      allowed: true,
      patterns: loopbackConnectors.allow,
    });
    expect(await refusalOf(ada, "https://mcp.example.com/mcp")).toBe(
      'The address "https://mcp.example.com/mcp" is not one this host\'s operator allows; it must match http://127.0.0.1:*/* or http://10.0.0.1/*.',
    );
    expect(await refusalOf(ada, "http://10.0.0.1/mcp")).toBe(
      'The address "http://10.0.0.1/mcp" leads to a private network address (10.0.0.1); this host adds only servers on the public internet.',
    );
    expect(await refusalOf(ada, notes.url.replace("http://", "http://me:pw@"))).toBe(
      "The address carries a user name or password; remove them, since you sign in to the server after adding it.",
    );
    expect(await host.server.store.listConnectors("ada")).toEqual([]);

    // Two servers on one host get names of their own, after the host.
    expect((await ada.value("connector:add", { url: notes.url })).name).toBe("127.0.0.1");
    const other = await ada.value("connector:add", { url: `${notes.url}/other` });
    expect(other).toMatchObject({ name: "127.0.0.1-2", connector: true });
    expect((await host.server.store.listConnectors("ada")).map(({ name }) => name)).toEqual([
      "127.0.0.1",
      "127.0.0.1-2",
    ]);
  });

  it("are signed in to, used in the chat, the person's alone, kept across a restart, and removed with their grant", async () => {
    let host = await connectorsHost(loopbackConnectors);
    const ada = await tabOf(host, "ada");
    const added = await ada.value("connector:add", { url: notes.url });
    expect(added).toMatchObject({ name: "127.0.0.1", remote: true, signIn: true, connector: true });
    await stateOf(ada, "127.0.0.1", "needs-sign-in");
    expect(await refusalOf(ada, notes.url)).toBe('You already added this server, as "127.0.0.1".');

    const tools = ada.next("chat:tools", ({ tools: listed }) =>
      listed.some((tool) => tool.source === "127.0.0.1"),
    );
    expect((await connectThroughBrowser(ada, "127.0.0.1", "ada")).status).toBe(200);
    await tools;
    await stateOf(ada, "127.0.0.1", "connected");
    expect((await exchange(ada, "chat-1", "/call whoami {}")).text).toContain("Signed in as ada");

    // Bob sees nothing of it, cannot connect to it or remove it.
    const bob = await tabOf(host, "bob");
    expect((await bob.value("servers:list", {})).map((server) => server.name)).toEqual([]);
    const bobConnect = await bob.value("server:connect", { name: "127.0.0.1" }).then(
      () => undefined,
      (failure: SocketRequestError) => failure.wire.message,
    );
    expect(bobConnect).toMatch(/is not a server you sign in to here/);
    const bobRemove = await bob.value("connector:remove", { name: "127.0.0.1" }).then(
      () => undefined,
      (failure: SocketRequestError) => failure.wire.message,
    );
    expect(bobRemove).toBe('"127.0.0.1" is not a server you added; only those can be removed.');
    expect((await exchange(bob, "chat-1", "/call whoami {}")).text).not.toContain("Signed in as");
    expect(notes.calls.map((call) => call.subject)).toEqual(["ada"]);

    // A restart keeps the connector and the sign-in.
    await host.close();
    hosts = [];
    host = await connectorsHost(loopbackConnectors);
    const again = await tabOf(host, "ada");
    const kept = await stateOf(again, "127.0.0.1", "connected");
    expect(kept.connector).toBe(true);
    expect((await exchange(again, "chat-1", "/call whoami {}")).text).toContain("Signed in as ada");

    // Removing it revokes the grant, forgets the connector and takes its tools away.
    const left = again.next("chat:tools", ({ tools: listed }) =>
      listed.every((tool) => tool.source !== "127.0.0.1"),
    );
    expect(await again.value("connector:remove", { name: "127.0.0.1" })).toEqual({
      removed: true,
    });
    await left;
    expect(authorization.revocations.map((revocation) => revocation.status)).toContain(200);
    expect(await host.server.store.getServerGrant("ada", "127.0.0.1")).toBeNull();
    expect(await host.server.store.listConnectors("ada")).toEqual([]);
    expect((await again.value("servers:list", {})).map((server) => server.name)).toEqual([]);
  });

  it("reach the person's other open sessions when added or removed", async () => {
    const host = await connectorsHost(loopbackConnectors);
    const here = await tabOf(host, "ada");
    const there = await host.connect({ headers: { "x-test-user": "ada" }, tabId: "tab-ada-2" });
    await there.value("session:hello", {});
    const names = async (client: TestClient) =>
      (await client.value("servers:list", {})).map((server) => server.name);
    await here.value("connector:add", { url: notes.url });
    await stateOf(there, "127.0.0.1", "needs-sign-in");
    await here.value("connector:remove", { name: "127.0.0.1" });
    for (
      let attempt = 0;
      attempt < 50 && (await names(there)).includes("127.0.0.1");
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await names(there)).toEqual([]);
  });
});
