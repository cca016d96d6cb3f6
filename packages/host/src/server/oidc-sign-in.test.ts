// The OpenID Connect auth mode against a real provider (oidc-provider on 127.0.0.1), through the
// HTTP layer: the flow, each refusal a person can meet, the session binding, logout.
import { freePort, startOidcProvider, type RunningOidcProvider } from "@mcp-chat-host/testing";
import { afterEach, describe, expect, it } from "vitest";
import { OidcTestBrowser } from "../../test/oidc-browser";
import type { AuthOptions } from "./auth";
import type { HttpLayerOptions } from "./http-layer";
import type { SharedSignInStates, SignInStateOutcome } from "./oidc-routes";
import { oidcUserId } from "./oidc-options";
import {
  connectSocket,
  memoryLogger,
  rawRequest,
  runCleanups,
  startLayer,
  type StartedLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** The store's sign-in states, in memory (the store's own are tested in cluster-store.test.ts). */
function memoryStates(): SharedSignInStates {
  const rows = new Map<string, { data: string; expiresAt: number; taken: boolean }>();
  return {
    saveSignInState(digest, data, expiresAt) {
      if (!rows.has(digest)) rows.set(digest, { data, expiresAt, taken: false });
      return Promise.resolve();
    },
    takeSignInState(digest, now): Promise<SignInStateOutcome> {
      const row = rows.get(digest);
      if (row === undefined || row.expiresAt <= now) return Promise.resolve({ outcome: "unknown" });
      if (row.taken) return Promise.resolve({ outcome: "already-used" });
      row.taken = true;
      return Promise.resolve({ outcome: "accepted", data: row.data });
    },
  };
}

const accounts = [
  { login: "ada", email: "ada@example.com", emailVerified: true, name: "Ada", groups: ["staff"] },
  { login: "bob", email: "bob@other.org", emailVerified: true, name: "Bob", groups: ["staff"] },
  { login: "eve", email: "eve@example.com", emailVerified: false, name: "Eve" },
  { login: "cy", email: "cy@example.com", emailVerified: true, name: "Cy", groups: ["guests"] },
];

interface Setup {
  provider: RunningOidcProvider;
  started: StartedLayer;
  browser: OidcTestBrowser;
  lines: ReturnType<typeof memoryLogger>["lines"];
  clock: { now: number };
}

/** A provider and a layer in the oidc mode on a port known in advance (the redirect URI's). */
async function setUp(
  auth: Partial<Extract<AuthOptions, { mode: "oidc" }>> = {},
  client: { idTokenAudience?: string; clientSecret?: string | null } = {},
  layer: Partial<HttpLayerOptions> = {},
): Promise<Setup> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const secret = client.clientSecret === null ? undefined : (client.clientSecret ?? "chat-secret");
  const provider = await startOidcProvider({
    clients: [
      {
        clientId: "chat",
        ...(secret === undefined ? {} : { clientSecret: secret }),
        redirectUris: [`${origin}/auth/callback`],
        postLogoutRedirectUris: [`${origin}/auth/signed-out`],
        ...(client.idTokenAudience === undefined
          ? {}
          : { idTokenAudience: client.idTokenAudience }),
      },
    ],
    accounts,
  });
  cleanups.push(() => provider.stop());
  const { logger, lines } = memoryLogger();
  const clock = { now: Date.now() };
  const layerBuilt = await startLayerAt(port, {
    auth: {
      mode: "oidc",
      issuer: provider.issuer,
      clientId: "chat",
      ...(secret === undefined ? {} : { clientSecret: secret }),
      ...auth,
    },
    logger,
    now: () => clock.now,
    ...layer,
  });
  layerBuilt.layer.shareSignInStates(memoryStates());
  return { provider, started: layerBuilt, browser: new OidcTestBrowser(), lines, clock };
}

/** {@link startLayer} on a given port. */
async function startLayerAt(port: number, options: HttpLayerOptions): Promise<StartedLayer> {
  const { createHttpLayer } = await import("./http-layer");
  const layer = createHttpLayer(options);
  cleanups.push(() => layer.close());
  const { url } = await layer.listen({ port, host: "127.0.0.1" });
  return { layer, port, origin: url, host: `127.0.0.1:${port}` };
}

/** The visible text of a notice page. */
function pageText(body: string): string {
  return body
    .replace(/<style>[^<]*<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

describe("sign-in with OpenID Connect", () => {
  it("sends an unsigned page load to the provider and signs the person in as oidcUserId(iss, sub), cookie and binding", async () => {
    const { provider, started, browser } = await setUp();
    const first = await browser.request(`${started.origin}/`);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${started.origin}/auth/login`);
    const login = await browser.request(first.location ?? "");
    const authorize = new URL(login.location ?? "");
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("nonce")).toMatch(/.{20,}/);
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${started.origin}/auth/callback`);

    const { cookie, binding } = await browser.signIn(`${started.origin}/auth/login`, "ada");
    const headers = { origin: started.origin, cookie };
    const socket = await connectSocket(cleanups, started.origin, headers, { binding });
    expect(socket.connected).toBe(true);
    if (!socket.connected) return;
    const who = await started.layer.authenticate({
      headers: { cookie, "x-mch-session-binding": binding },
      socket: { remoteAddress: "127.0.0.1" },
    } as never);
    expect(who?.user).toEqual({ id: oidcUserId(provider.issuer, "ada"), name: "Ada" });
    expect(oidcUserId(provider.issuer, "ada")).toMatch(/^oidc-[\w-]{43}$/);
    // The cookie alone (copied to another port's program) is no sign-in: the binding is needed.
    const unbound = await connectSocket(cleanups, started.origin, headers, {});
    expect(unbound.connected).toBe(false);
  });

  it("works for a public client with PKCE alone (no client secret)", async () => {
    const { started, browser } = await setUp({}, { clientSecret: null });
    const { cookie, binding } = await browser.signIn(`${started.origin}/auth/login`, "ada");
    const socket = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie },
      { binding },
    );
    expect(socket.connected).toBe(true);
  });

  it("refuses a replayed callback: the state is taken once", async () => {
    const { started, browser } = await setUp();
    const callback = await browser.reachCallback(`${started.origin}/auth/login`, "ada");
    const first = await browser.request(callback);
    expect(first.status).toBe(200);
    const again = await browser.request(callback);
    expect(again.status).toBe(400);
    expect(pageText(again.body)).toContain(
      "This sign-in link has expired or was already used; start again.",
    );
    expect(again.setCookies.some((line) => line.startsWith("mch_session=v1"))).toBe(false);
  });

  it("refuses a state older than the sign-in timeout", async () => {
    const { started, browser, clock } = await setUp({ signInTimeoutSeconds: 600 });
    const callback = await browser.reachCallback(`${started.origin}/auth/login`, "ada");
    clock.now += 600_000;
    const late = await browser.request(callback);
    expect(late.status).toBe(400);
    expect(pageText(late.body)).toContain("has expired or was already used; start again.");
    expect(pageText(late.body)).toContain("within 10 minutes");
  });

  it("refuses an ID token issued for another audience, and says so without the library's words", async () => {
    const { started, browser, lines } = await setUp({}, { idTokenAudience: "another-app" });
    const callback = await browser.reachCallback(`${started.origin}/auth/login`, "ada");
    const answer = await browser.request(callback);
    expect(answer.status).toBe(401);
    const text = pageText(answer.body);
    expect(text).toContain("The sign-in could not be checked");
    expect(text).toContain("meant for another application");
    expect(text).not.toMatch(/aud|JWT|OAUTH_/);
    expect(answer.setCookies.some((line) => line.startsWith("mch_session=v1"))).toBe(false);
    const logged = lines.find((line) => line.msg === "An OpenID sign-in failed.");
    expect(logged).toMatchObject({ kind: "invalid" });
    expect(String(logged?.["detail"])).toContain("aud");
    // No token or code in any log line.
    const code = new URL(callback).searchParams.get("code") ?? "";
    expect(JSON.stringify(lines)).not.toContain(code);
  });

  it("refuses a person outside the allowed domains, naming their account and the domains", async () => {
    const { started, browser } = await setUp({ allowedDomains: ["example.com"] });
    const callback = await browser.reachCallback(`${started.origin}/auth/login`, "bob");
    const answer = await browser.request(callback);
    expect(answer.status).toBe(403);
    expect(pageText(answer.body)).toContain(
      "Your account bob@other.org is not allowed here; sign in with an account of example.com, or ask the operator of this host to let your account in.",
    );
    expect(answer.setCookies.some((line) => line.startsWith("mch_session=v1"))).toBe(false);
    // An unverified address at the right domain is refused too.
    // Its link asks the provider for another sign-in (the provider still knows Bob).
    expect(answer.body).toContain('href="/auth/login?another=1"');
    const another = `${started.origin}/auth/login?another=1`;
    const unverified = await browser.request(await browser.reachCallback(another, "eve"));
    expect(unverified.status).toBe(403);
    expect(pageText(unverified.body)).toContain("eve@example.com is not verified");
    // One of the domain signs in.
    await browser.signIn(another, "ada");
  });

  it("refuses a person in none of the allowed groups", async () => {
    const { started, browser } = await setUp({
      allowedGroups: ["staff"],
      scopes: ["openid", "email", "profile", "groups"],
    });
    const answer = await browser.request(
      await browser.reachCallback(`${started.origin}/auth/login`, "cy"),
    );
    expect(answer.status).toBe(403);
    expect(pageText(answer.body)).toContain(
      "Your account cy@example.com is not in a group allowed here",
    );
    await browser.signIn(`${started.origin}/auth/login?another=1`, "ada");
  });

  it("refuses an answer that reaches another browser than the one that started the flow", async () => {
    const { started, browser } = await setUp();
    const callback = await browser.reachCallback(`${started.origin}/auth/login`, "ada");
    const victim = new OidcTestBrowser();
    const answer = await victim.request(callback);
    expect(answer.status).toBe(400);
    expect(pageText(answer.body)).toContain("reached a browser that did not start this sign-in");
    expect(answer.setCookies.some((line) => line.startsWith("mch_session=v1"))).toBe(false);
  });

  it("tells the person when the provider refused, and when it cannot be reached", async () => {
    const { started, browser, provider } = await setUp();
    const login = await browser.request(`${started.origin}/auth/login`);
    const state = new URL(login.location ?? "").searchParams.get("state") ?? "";
    const refused = await browser.request(
      `${started.origin}/auth/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
    );
    expect(refused.status).toBe(401);
    expect(pageText(refused.body)).toContain("did not sign you in (access_denied)");

    const gone = await freePort();
    const { started: orphan } = await setUp({ issuer: `http://127.0.0.1:${gone}` });
    const unreachable = await browser.request(`${orphan.origin}/auth/login`);
    expect(unreachable.status).toBe(503);
    expect(pageText(unreachable.body)).toContain(
      "could not reach your organisation's sign-in provider",
    );
    expect(unreachable.body).not.toContain(String(gone));
  });

  it("signs out: clears the cookie, ends the session's sockets, and sends the browser to the provider's end-session endpoint", async () => {
    const { started, browser, provider } = await setUp();
    const { cookie, binding } = await browser.signIn(`${started.origin}/auth/login`, "ada");
    const socket = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie },
      { binding },
    );
    if (!socket.connected) throw new Error("not connected");
    const ended = new Promise<string>((resolve) => socket.socket.once("disconnect", resolve));
    const crossSite = await rawRequest(started.port, "/auth/logout", {
      method: "POST",
      headers: { host: started.host, origin: "http://evil.example", cookie },
    });
    expect(crossSite.status).toBe(403);
    const answer = await rawRequest(started.port, "/auth/logout", {
      method: "POST",
      headers: {
        host: started.host,
        origin: started.origin,
        cookie,
        "x-mch-session-binding": binding,
      },
    });
    expect(answer.status).toBe(200);
    const next = new URL((JSON.parse(answer.body) as { value: { next: string } }).value.next);
    expect(next.origin).toBe(provider.issuer);
    expect(next.searchParams.get("post_logout_redirect_uri")).toBe(
      `${started.origin}/auth/signed-out`,
    );
    expect(String(answer.headers["set-cookie"])).toMatch(/mch_session=;.*Max-Age=0/);
    expect(await ended).toBe("io server disconnect");
  });

  it("takes no operator cookie of the token mode as a sign-in, even under the same key", async () => {
    const token = await startLayer(cleanups, {
      sessionSecret: "one-key-for-both-modes-of-32-characters",
    });
    const signInUrl = new URL(token.layer.urls.signIn ?? "");
    const signedIn = await rawRequest(token.port, `/${signInUrl.search}`, {
      headers: { host: token.host },
    });
    const cookie = (signedIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^mch_session=/);
    const { started } = await setUp(
      {},
      {},
      { sessionSecret: "one-key-for-both-modes-of-32-characters" },
    );
    const page = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie, "sec-fetch-dest": "document" },
    });
    expect(page.status).toBe(303);
    expect(page.headers["location"]).toBe("/auth/login");
  });
});
