import type { Request, Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { sessionOf } from "./require-auth";
import {
  bindingOfSignInPage,
  connectSocket,
  runCleanups,
  signIn,
  startLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

describe("token sign-in", () => {
  it("exchanges the token for an HttpOnly SameSite=Strict cookie and a page that stores the binding and goes to /", async () => {
    const started = await startLayer(cleanups);
    const token = new URL(started.layer.urls.signIn ?? "").searchParams.get("token");
    const response = await fetch(`${started.origin}/?token=${token}`, { redirect: "manual" });
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    // The page's one script runs by its hash; nothing else may load or run.
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+';/);
    const page = await response.text();
    expect(page).toContain('localStorage.setItem("mch-session-binding"');
    expect(page).toContain('location.replace("/")');
    expect(bindingOfSignInPage(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const setCookie = response.headers.get("set-cookie") ?? "";
    // The binding is in the page only, never in the cookie.
    expect(setCookie).not.toContain(bindingOfSignInPage(page) ?? "-");
    expect(setCookie).toMatch(/^mch_session=v1\./);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).not.toContain("Secure");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const cookie = setCookie.split(";")[0] ?? "";
    const app = await fetch(`${started.origin}/`, { headers: { cookie } });
    expect(app.status).toBe(503); // signed in; no web app built in this test
    expect(await app.text()).toContain("not built");
  });

  it("also accepts /auth?token=", async () => {
    const started = await startLayer(cleanups);
    const token = new URL(started.layer.urls.signIn ?? "").searchParams.get("token");
    const { setCookie } = await signIn(started, `${started.origin}/auth?token=${token}`);
    expect(setCookie).toContain("HttpOnly");
  });

  it("refuses a second use with a page saying how to get a new URL", async () => {
    const started = await startLayer(cleanups);
    const url = started.layer.urls.signIn ?? "";
    await signIn(started, url);
    const again = await fetch(url, { redirect: "manual" });
    expect(again.status).toBe(401);
    expect(again.headers.get("set-cookie")).toBeNull();
    const text = await again.text();
    expect(text).toContain("already used");
    expect(text).toContain("npx mcp-chat-host sign-in --data");
    expect(text).toContain("npm run sign-in");
    expect(again.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("sends an already signed-in browser on to / when it reuses its spent URL", async () => {
    const started = await startLayer(cleanups);
    const url = started.layer.urls.signIn ?? "";
    const { cookie } = await signIn(started, url);
    const again = await fetch(url, { redirect: "manual", headers: { cookie } });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/");
  });

  it("does not spend the token on a HEAD request (link previews)", async () => {
    const started = await startLayer(cleanups);
    const url = started.layer.urls.signIn ?? "";
    const head = await fetch(url, { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(401);
    expect(head.headers.get("set-cookie")).toBeNull();
    await signIn(started, url);
  });

  it("refuses an unknown token", async () => {
    const started = await startLayer(cleanups);
    const response = await fetch(`${started.origin}/?token=made-up`, { redirect: "manual" });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("not valid");
  });

  it("mints a new working URL with signInUrl()", async () => {
    const started = await startLayer(cleanups);
    const first = started.layer.urls.signIn;
    const fresh = started.layer.signInUrl();
    expect(fresh).not.toBe(first);
    expect(started.layer.urls.signIn).toBe(fresh);
    await signIn(started, fresh);
  });

  it("refuses a forged cookie and one signed with another secret", async () => {
    const started = await startLayer(cleanups);
    const other = await startLayer(cleanups, { sessionSecret: "another secret" });
    const { cookie } = await signIn(other);
    const forged = cookie.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    for (const candidate of [cookie, forged, "mch_session=v1.x.b3BlcmF0b3I.1.abc"]) {
      const response = await fetch(`${started.origin}/api/anything`, {
        headers: { cookie: candidate },
      });
      expect(response.status).toBe(401);
    }
  });

  it("keeps a sign-in across a restart when the secret persists, until it expires", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const options = { sessionSecret: "persisted", sessionMaxAgeSeconds: 3600, now: () => now };
    const first = await startLayer(cleanups, options);
    const { headers } = await signIn(first);
    await first.layer.close();
    const second = await startLayer(cleanups, options);
    second.layer.routes.get("/api/who", (_request: Request, response: Response) => {
      response.json(sessionOf(response));
    });
    // The browser kept the cookie and the page's storage kept the binding.
    const accepted = await fetch(`${second.origin}/api/who`, { headers });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ user: { id: "operator", name: "Operator" } });
    const socket = await connectSocket(cleanups, second.origin, {
      origin: second.origin,
      cookie: headers["cookie"] ?? "",
    });
    expect(socket.connected).toBe(true);
    now += 3601 * 1000;
    const expired = await fetch(`${second.origin}/api/who`, { headers });
    expect(expired.status).toBe(401);
  });
});

describe("without auth", () => {
  it("answers routes with 401 JSON and page loads with a sign-in page", async () => {
    const started = await startLayer(cleanups);
    started.layer.routes.get("/api/secret", (_request: Request, response: Response) => {
      response.json({ secret: true });
    });
    const api = await fetch(`${started.origin}/api/secret`);
    expect(api.status).toBe(401);
    const body = (await api.json()) as {
      ok: boolean;
      error: { code: string; message: string; retryable: boolean };
    };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.retryable).toBe(false);
    const page = await fetch(`${started.origin}/`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("printed in its terminal");
  });

  it("gives no socket (connect_error with an unauthorized WireError)", async () => {
    const started = await startLayer(cleanups);
    let connections = 0;
    started.layer.io.on("connection", () => connections++);
    const outcome = await connectSocket(cleanups, started.origin, { origin: started.origin });
    expect(outcome.connected).toBe(false);
    if (outcome.connected) return;
    expect(outcome.error.data).toMatchObject({ code: "unauthorized" });
    expect(outcome.error.message).toContain("sign-in URL");
    expect(connections).toBe(0);
  });
});
