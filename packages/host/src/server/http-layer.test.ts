import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Request, Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { toWireError } from "../errors/to-wire-error";
import { HostError } from "../host-error";
import { createHttpLayer } from "./http-layer";
import { HttpLayerError } from "../errors/http-layer-error";
import { sessionOf } from "./require-auth";
import type { HostSocketData } from "./socket-guard";
import {
  connectSocket,
  memoryLogger,
  rawRequest,
  runCleanups,
  signIn,
  startLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

describe("binding", () => {
  it("refuses a non-loopback address when auth was left out, at construction", () => {
    expect(() => createHttpLayer({ host: "0.0.0.0" })).toThrow(HttpLayerError);
    try {
      createHttpLayer({ host: "0.0.0.0" });
    } catch (error) {
      expect((error as HttpLayerError).code).toBe("unsafe_bind");
      expect((error as Error).message).toContain("auth");
    }
  });

  it("accepts a non-loopback address when auth is explicit (token counts)", async () => {
    const layer = createHttpLayer({ host: "0.0.0.0", auth: { mode: "token" } });
    await layer.close();
  });

  it("refuses listen() on a non-loopback address without auth, before binding", async () => {
    const layer = createHttpLayer();
    cleanups.push(() => layer.close());
    await expect(layer.listen({ port: 0, host: "0.0.0.0" })).rejects.toMatchObject({
      code: "unsafe_bind",
    });
  });

  it("binds 127.0.0.1 by default and reports its URL", async () => {
    const layer = createHttpLayer();
    cleanups.push(() => layer.close());
    const { port, url } = await layer.listen();
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(layer.urls.host).toBe(url);
    expect(layer.urls.signIn).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{43}$`),
    );
  });

  it("has no URLs before listen()", () => {
    const layer = createHttpLayer();
    cleanups.push(() => layer.close());
    expect(() => layer.urls.host).toThrow(/listen/);
    expect(() => layer.signInUrl()).toThrow(/listen/);
  });
});

describe("/healthz", () => {
  it("answers without auth and with any Host, and holds no data", async () => {
    const started = await startLayer(cleanups);
    const response = await rawRequest(started.port, "/healthz", {
      headers: { host: "probe.internal" },
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ ok: true });
  });
});

describe("signed in", () => {
  it("connects a socket with the cookie and the host's Origin, with user and session on socket.data", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const seen: HostSocketData[] = [];
    started.layer.io.on("connection", (socket) => {
      seen.push({ ...socket.data });
    });
    const outcome = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      cookie,
    });
    expect(outcome.connected).toBe(true);
    const sessionId = decodeURIComponent(cookie.split("=")[1] ?? "").split(".")[1];
    expect(seen).toEqual([{ user: { id: "operator", name: "Operator" }, sessionId }]);
    const viaLocalhost = await connectSocket(cleanups, started.origin, {
      origin: `http://localhost:${started.port}`,
      cookie,
    });
    expect(viaLocalhost.connected).toBe(true);
  });

  it("authenticates handshakes on namespaces created later", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const seen: HostSocketData[] = [];
    started.layer.io.of("/extra").on("connection", (socket) => {
      seen.push({ ...socket.data });
    });
    const anonymous = await connectSocket(cleanups, `${started.origin}/extra`, {
      origin: started.origin,
    });
    expect(anonymous.connected).toBe(false);
    const signedIn = await connectSocket(cleanups, `${started.origin}/extra`, {
      origin: started.origin,
      cookie,
    });
    expect(signedIn.connected).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.user.id).toBe("operator");
  });

  it("passes the session to routes added to `routes`, with JSON bodies up to the cap", async () => {
    const started = await startLayer(cleanups, { maxHttpBufferSize: 1_000 });
    const { headers: signedIn } = await signIn(started);
    started.layer.routes.post("/api/echo", (request: Request, response: Response) => {
      response.json({ body: request.body as unknown, user: sessionOf(response).user.id });
    });
    const headers = { ...signedIn, origin: started.origin, "content-type": "application/json" };
    const ok = await fetch(`${started.origin}/api/echo`, {
      method: "POST",
      headers,
      body: JSON.stringify({ a: 1 }),
    });
    expect(await ok.json()).toEqual({ body: { a: 1 }, user: "operator" });
    const big = await fetch(`${started.origin}/api/echo`, {
      method: "POST",
      headers,
      body: JSON.stringify({ a: "x".repeat(2_000) }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe("too_large");
  });

  it("answers a route's failure through the given error mapping, else as internal", async () => {
    const { logger, lines } = memoryLogger();
    const mapped = await startLayer(cleanups, { logger, toWireError });
    const plain = await startLayer(cleanups, { logger });
    for (const started of [mapped, plain]) {
      started.layer.routes.get("/api/gone", () => {
        throw new HostError("not_found", "That conversation doesn't exist, or isn't yours.");
      });
    }
    const answer = async (started: typeof mapped) => {
      const { headers } = await signIn(started);
      const response = await fetch(`${started.origin}/api/gone`, { headers });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await answer(mapped)).toEqual({
      status: 404,
      body: {
        ok: false,
        error: {
          code: "not_found",
          message: "That conversation doesn't exist, or isn't yours.",
          retryable: false,
        },
      },
    });
    const unmapped = await answer(plain);
    expect(unmapped.status).toBe(500);
    expect(unmapped.body).toMatchObject({ ok: false, error: { code: "internal" } });
    expect(JSON.stringify(unmapped.body)).not.toContain("isn't yours");
    expect(lines.filter((line) => line.msg === "An HTTP route failed.")).toHaveLength(1);
  });

  it("answers an unknown API path with 404 JSON", async () => {
    const started = await startLayer(cleanups);
    const { headers } = await signIn(started);
    const response = await fetch(`${started.origin}/api/nothing.json`, { headers });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("Origin and Host checks", () => {
  it("refuses a socket from another Origin or without one, even signed in", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    let connections = 0;
    started.layer.io.on("connection", () => connections++);
    for (const origin of ["http://evil.example", "null", `http://127.0.0.1:${started.port + 1}`]) {
      const outcome = await connectSocket(cleanups, started.origin, { origin, cookie });
      expect(outcome.connected, origin).toBe(false);
    }
    const withoutOrigin = await connectSocket(cleanups, started.origin, { cookie });
    expect(withoutOrigin.connected).toBe(false);
    expect(connections).toBe(0);
  });

  it("refuses a socket with a foreign Host (DNS rebinding)", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    // The host's own Origin, so only the Host header is wrong.
    const outcome = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      host: `rebind.example:${started.port}`,
      cookie,
    });
    expect(outcome.connected).toBe(false);
    const control = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      host: started.host,
      cookie,
    });
    expect(control.connected).toBe(true);
  });

  it("refuses state-changing HTTP requests from another Origin or without one", async () => {
    const started = await startLayer(cleanups);
    const { headers: signedIn } = await signIn(started);
    let reached = 0;
    started.layer.routes.post("/api/change", (_request: Request, response: Response) => {
      reached++;
      response.json({ changed: true });
    });
    const base = { host: started.host, ...signedIn, "content-type": "application/json" };
    for (const headers of [
      { ...base, origin: "http://evil.example" },
      base,
      { ...base, origin: "null" },
    ]) {
      const response = await rawRequest(started.port, "/api/change", {
        method: "POST",
        headers,
        body: "{}",
      });
      expect(response.status).toBe(403);
      const body = JSON.parse(response.body) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toContain("allowedOrigins");
    }
    const allowed = await rawRequest(started.port, "/api/change", {
      method: "POST",
      headers: { ...base, origin: started.origin },
      body: "{}",
    });
    expect(allowed.status).toBe(200);
    expect(reached).toBe(1);
  });

  it("refuses data GETs from another site, including the same-site sandbox ports", async () => {
    const started = await startLayer(cleanups);
    const { headers: signedIn } = await signIn(started);
    started.layer.routes.get("/api/data", (_request: Request, response: Response) => {
      response.json({ data: "private" });
    });
    const base = { host: started.host, ...signedIn };
    const refused = [
      { ...base, origin: `http://127.0.0.1:${started.port + 1}` },
      { ...base, "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors" },
      { ...base, "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
    ];
    for (const headers of refused) {
      const response = await rawRequest(started.port, "/api/data", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.body).not.toContain("private");
    }
    const accepted = [
      { ...base, "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" },
      { ...base, origin: started.origin },
      base,
    ];
    for (const headers of accepted) {
      const response = await rawRequest(started.port, "/api/data", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("lets a top-level navigation from another site open the host page (it cannot be framed)", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const response = await rawRequest(started.port, "/", {
      headers: {
        host: started.host,
        cookie,
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "navigate",
        "sec-fetch-dest": "document",
      },
    });
    expect(response.status).toBe(503);
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("refuses a foreign Host on HTTP with 421 and a clear message, even signed in", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, { logger });
    const { cookie } = await signIn(started);
    const response = await rawRequest(started.port, "/", {
      headers: { host: `rebind.example:${started.port}`, cookie },
    });
    expect(response.status).toBe(421);
    expect(JSON.parse(response.body).error.message).toContain("DNS rebinding");
    expect(lines.some((line) => String(line.msg).startsWith("Refused an HTTP request"))).toBe(true);
    const token = await rawRequest(
      started.port,
      `/?token=${new URL(started.layer.signInUrl()).searchParams.get("token")}`,
      {
        headers: { host: "rebind.example" },
      },
    );
    expect(token.status).toBe(421);
  });

  it("answers configured hosts and origins", async () => {
    const started = await startLayer(cleanups, {
      allowedHosts: ["chat.lan:8080"],
      allowedOrigins: ["http://localhost:5173"],
    });
    const { cookie } = await signIn(started);
    const viaName = await rawRequest(started.port, "/healthz", {
      headers: { host: "chat.lan:8080", cookie },
    });
    expect(viaName.status).toBe(200);
    const page = await rawRequest(started.port, "/", {
      headers: { host: "chat.lan:8080", cookie, origin: "http://chat.lan:8080" },
    });
    expect(page.status).toBe(503);
    const socket = await connectSocket(cleanups, started.origin, {
      origin: "http://localhost:5173",
      cookie,
    });
    expect(socket.connected).toBe(true);
  });

  it("refuses malformed configured origins at construction", () => {
    expect(() => createHttpLayer({ allowedOrigins: ["not a url"] })).toThrow(/allowedOrigins/);
    expect(() => createHttpLayer({ publicOrigin: "ftp://example.com" })).toThrow(/publicOrigin/);
  });

  it("makes the cookie Secure with the __Host- prefix behind an https public origin", async () => {
    const started = await startLayer(cleanups, { publicOrigin: "https://chat.example.com" });
    expect(started.layer.urls.signIn).toMatch(/^https:\/\/chat\.example\.com\/\?token=/);
    const token = new URL(started.layer.urls.signIn ?? "").searchParams.get("token");
    const response = await rawRequest(started.port, `/?token=${token}`, {
      headers: { host: "chat.example.com" },
    });
    expect(response.status).toBe(200);
    const setCookie = response.headers["set-cookie"]?.[0] ?? "";
    expect(setCookie).toMatch(/^__Host-mch_session=/);
    expect(setCookie).toContain("Secure");
  });
});

describe("the web app", () => {
  function builtApp(): string {
    const root = mkdtempSync(path.join(tmpdir(), "mch-web-"));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(path.join(root, "assets"));
    writeFileSync(
      path.join(root, "index.html"),
      "<!doctype html><title>host</title><div id=root></div>",
    );
    writeFileSync(path.join(root, "assets", "app.js"), "console.log('app');");
    writeFileSync(path.join(root, "assets", "index-BcmQ9BIv.js"), "console.log('hashed');");
    return root;
  }

  it("serves files and index.html for client routes only when signed in, with the host page headers", async () => {
    const started = await startLayer(cleanups, { webRoot: builtApp() });
    const { cookie } = await signIn(started);
    const index = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie, accept: "text/html" },
    });
    expect(index.status).toBe(200);
    expect(index.body).toContain("<div id=root>");
    const csp = String(index.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    // Exactly the sandbox proxy's origin: no pattern a frame could be sent elsewhere through.
    expect(csp).toMatch(/frame-src http:\/\/proxy\.localhost:\d+;/);
    expect(csp).toContain(`connect-src 'self' ws://${started.host}`);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(index.headers["x-content-type-options"]).toBe("nosniff");
    expect(index.headers["referrer-policy"]).toBe("same-origin");
    const clientRoute = await rawRequest(started.port, "/c/123", {
      headers: { host: started.host, cookie, accept: "text/html" },
    });
    expect(clientRoute.body).toContain("<div id=root>");
    const script = await rawRequest(started.port, "/assets/app.js", {
      headers: {
        host: started.host,
        cookie,
        "sec-fetch-site": "same-origin",
        "sec-fetch-dest": "script",
      },
    });
    expect(script.status).toBe(200);
    expect(script.body).toContain("console.log");
    // Not named by its content: revalidated.
    expect(script.headers["cache-control"]).toBe("no-cache");
    // Named by its content (as the build names its files): the person's browser keeps it.
    const hashed = await rawRequest(started.port, "/assets/index-BcmQ9BIv.js", {
      headers: { host: started.host, cookie, "sec-fetch-site": "same-origin" },
    });
    expect(hashed.status).toBe(200);
    expect(hashed.headers["cache-control"]).toBe("private, max-age=31536000, immutable");
    expect(String(hashed.headers["content-security-policy"])).toContain("default-src 'self'");
    const localhostPage = await rawRequest(started.port, "/", {
      headers: { host: `localhost:${started.port}`, cookie, accept: "text/html" },
    });
    expect(String(localhostPage.headers["content-security-policy"])).toMatch(
      /frame-src http:\/\/proxy\.localhost:\d+;/,
    );

    for (const target of [
      "/",
      "/c/123",
      "/assets/app.js",
      "/assets/index-BcmQ9BIv.js",
      "/index.html",
    ]) {
      const anonymous = await rawRequest(started.port, target, {
        headers: { host: started.host, accept: "text/html" },
      });
      expect(anonymous.status, target).toBe(401);
      expect(anonymous.body).not.toContain("<div id=root>");
      expect(anonymous.body).not.toContain("console.log");
    }
  });
});

describe("close()", () => {
  it("closes sockets, the HTTP server and the sandbox listeners, leaving nothing listening", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const outcome = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      cookie,
    });
    if (!outcome.connected) throw outcome.error;
    const { origin: sandboxOrigin } = await started.layer.urls.sandboxPlacement(
      "basic",
      undefined,
      {},
    );
    const keepAlive = await fetch(`${started.origin}/healthz`);
    expect(keepAlive.status).toBe(200);
    const disconnected = new Promise<string>((resolve) =>
      outcome.socket.once("disconnect", resolve),
    );
    await started.layer.close();
    await disconnected;
    await expect(fetch(`${started.origin}/healthz`)).rejects.toThrow();
    await expect(rawRequest(started.port, "/healthz")).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
    await expect(rawRequest(Number(new URL(sandboxOrigin).port), "/proxy")).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
    await started.layer.close(); // a second close is harmless
    await expect(started.layer.listen()).rejects.toMatchObject({ code: "already_listening" });
  });
});
