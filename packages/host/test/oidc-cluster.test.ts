// OpenID sign-in on two host nodes sharing one Postgres and one Redis (both real, on
// 127.0.0.1), behind one public origin as a balancer would present them: a sign-in started on
// one node finishes on the other (the state is in the database), its answer is taken once
// across both, and a sign-out on one node ends the tabs the other holds.
import {
  freePort,
  startOidcProvider,
  startPostgres,
  startRedis,
  type RunningOidcProvider,
  type RunningPostgres,
  type RunningRedis,
} from "@mcp-chat-host/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { oidcUserId } from "../src/server/oidc-options";
import { rawRequest } from "../src/testing/http-layer-support";
import { connectSocketTestClient } from "../src/testing";
import { startNode, type TestNode } from "./cluster-support";
import { OidcTestBrowser } from "./oidc-browser";

let postgres: RunningPostgres;
let redis: RunningRedis;
let provider: RunningOidcProvider;
let nodeA: TestNode;
let nodeB: TestNode;
let publicOrigin = "";

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const databaseUrl = await postgres.createDatabase();
  // The balancer's address: nothing listens there; the test sends each request to a node itself.
  publicOrigin = `http://127.0.0.1:${await freePort()}`;
  provider = await startOidcProvider({
    clients: [
      {
        clientId: "chat",
        clientSecret: "chat-secret",
        redirectUris: [`${publicOrigin}/auth/callback`],
        postLogoutRedirectUris: [`${publicOrigin}/auth/signed-out`],
      },
    ],
    accounts: [{ login: "ada", email: "ada@example.com", emailVerified: true, name: "Ada" }],
  });
  const options = {
    publicOrigin,
    auth: {
      mode: "oidc" as const,
      issuer: provider.issuer,
      clientId: "chat",
      clientSecret: "chat-secret",
    },
  };
  const shared = { databaseUrl, redisUrl: redis.url };
  nodeA = await startNode("node-a", shared, options);
  nodeB = await startNode("node-b", shared, options);
}, 120_000);

afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await provider?.stop();
  await redis?.stop();
  await postgres?.stop();
});

/** A browser whose requests to the public origin reach `node` (the provider's reach it). */
function through(browser: OidcTestBrowser, node: () => TestNode): void {
  const publicHost = new URL(publicOrigin).host;
  browser.route = (url) => (url.host === publicHost ? node().port : Number(url.port));
}

it("finishes on node B a sign-in started on node A, once, and signs out on B the tab held by A", async () => {
  const browser = new OidcTestBrowser();
  let current = nodeA;
  through(browser, () => current);
  const callback = await browser.reachCallback(`${publicOrigin}/auth/login`, "ada");
  current = nodeB;
  const signedIn = await browser.request(callback);
  expect(signedIn.status).toBe(200);
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(signedIn.body)?.[1];
  const cookie = browser.cookieHeader(publicOrigin);
  expect(binding).toBeDefined();
  const signedInOn = (node: TestNode) =>
    node.logs.some((line) => line.msg === "Signed in with OpenID Connect.");
  expect([signedInOn(nodeA), signedInOn(nodeB)]).toEqual([false, true]);

  // The answer is spent on both nodes.
  current = nodeA;
  const replayed = await browser.request(callback);
  expect(replayed.status).toBe(400);
  expect(replayed.body).toContain("has expired or was already used; start again.");

  // The tab on node A is that person.
  // (`nodeA.url` is the public origin; the tab reaches node A itself.)
  const tab = await connectSocketTestClient(`http://127.0.0.1:${nodeA.port}`, {
    tabId: "tab-a",
    cookie,
    origin: publicOrigin,
    binding,
    // As through the balancer: the public name.
    headers: { host: new URL(publicOrigin).host },
  });
  const hello = await tab.value("session:hello", {});
  expect(hello.user).toEqual({ id: oidcUserId(provider.issuer, "ada"), name: "Ada" });
  expect(hello.signOut).toBe(true);

  // Signing out on node B ends node A's tab.
  const ended = new Promise<string>((resolve) => tab.socket.once("disconnect", resolve));
  const out = await rawRequest(nodeB.port, "/auth/logout", {
    method: "POST",
    headers: {
      host: new URL(publicOrigin).host,
      origin: publicOrigin,
      cookie,
      "x-mch-session-binding": binding ?? "",
    },
  });
  expect(out.status).toBe(200);
  expect(await ended).toBe("io server disconnect");
  tab.close();
}, 60_000);
