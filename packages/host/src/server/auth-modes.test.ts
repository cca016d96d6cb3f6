import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { HostUser } from "./auth";
import { createHttpLayer } from "./http-layer";
import { sessionOf } from "./require-auth";
import type { HostSocketData } from "./socket-guard";
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

/** Adds `GET /api/who` answering the request's session. */
function addWhoRoute(started: StartedLayer): void {
  started.layer.routes.get("/api/who", (_request: Request, response: Response) => {
    response.json(sessionOf(response));
  });
}

describe("trusted-header auth", () => {
  it("refuses the header from a peer that is not a listed proxy, on HTTP and on the socket", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, {
      auth: {
        mode: "trusted-header",
        header: "x-forwarded-user",
        proxies: ["10.0.0.1", "192.168.0.0/16"],
      },
      logger,
    });
    addWhoRoute(started);
    const response = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host, "x-forwarded-user": "alice" },
    });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error.code).toBe("unauthorized");
    const socket = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      "x-forwarded-user": "alice",
    });
    expect(socket.connected).toBe(false);
    expect(lines.some((line) => String(line.msg).includes("not a trusted proxy"))).toBe(true);
  });

  it("accepts the header from a listed proxy, with a stable session cookie bound to that user", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "trusted-header", proxies: ["127.0.0.1"], nameHeader: "x-forwarded-name" },
    });
    addWhoRoute(started);
    const headers = {
      host: started.host,
      "x-forwarded-user": "alice",
      "x-forwarded-name": "Alice A.",
    };
    const first = await rawRequest(started.port, "/api/who", { headers });
    expect(first.status).toBe(200);
    const session = JSON.parse(first.body) as { user: HostUser; sessionId: string };
    expect(session.user).toEqual({ id: "alice", name: "Alice A." });
    const cookie = (first.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^mch_session=/);
    const second = await rawRequest(started.port, "/api/who", { headers: { ...headers, cookie } });
    expect(JSON.parse(second.body).sessionId).toBe(session.sessionId);
    // Another user behind the same browser does not inherit the session.
    const bob = await rawRequest(started.port, "/api/who", {
      headers: { ...headers, "x-forwarded-user": "bob", cookie },
    });
    expect(JSON.parse(bob.body).user.id).toBe("bob");
    expect(JSON.parse(bob.body).sessionId).not.toBe(session.sessionId);
    // The cookie alone is no credential in this mode.
    const cookieOnly = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host, cookie },
    });
    expect(cookieOnly.status).toBe(401);

    const seen: HostSocketData[] = [];
    started.layer.io.on("connection", (connected) => {
      seen.push({ ...connected.data });
    });
    const socket = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      "x-forwarded-user": "alice",
      cookie,
    });
    expect(socket.connected).toBe(true);
    expect(seen).toEqual([{ user: { id: "alice", name: "alice" }, sessionId: session.sessionId }]);
  });

  it("refuses a request from a listed proxy that carries no user", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "trusted-header", proxies: ["127.0.0.1"] },
    });
    addWhoRoute(started);
    const response = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host },
    });
    expect(response.status).toBe(401);
  });

  it("has no token exchange and no sign-in URL", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "trusted-header", proxies: ["127.0.0.1"] },
    });
    expect(started.layer.urls.signIn).toBeNull();
    expect(() => started.layer.signInUrl()).toThrow(/token/);
    const response = await rawRequest(started.port, "/?token=anything", {
      headers: { host: started.host, accept: "text/html" },
    });
    expect(response.status).toBe(401);
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a malformed proxy entry at construction", () => {
    expect(() =>
      createHttpLayer({ auth: { mode: "trusted-header", proxies: ["not-an-ip"] } }),
    ).toThrow(/proxies/);
  });
});

describe("function auth", () => {
  const authenticate = (request: IncomingMessage): HostUser | null => {
    const user = request.headers["x-test-user"];
    if (user === "broken") throw new Error("identity provider down");
    return typeof user === "string" ? { id: user, name: `User ${user}` } : null;
  };

  it("uses the function's user on HTTP and on the socket, and refuses when it returns null", async () => {
    const started = await startLayer(cleanups, { auth: { mode: "function", authenticate } });
    addWhoRoute(started);
    const accepted = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host, "x-test-user": "carol" },
    });
    expect(JSON.parse(accepted.body).user).toEqual({ id: "carol", name: "User carol" });
    const refused = await rawRequest(started.port, "/api/who", { headers: { host: started.host } });
    expect(refused.status).toBe(401);
    const seen: HostSocketData[] = [];
    started.layer.io.on("connection", (connected) => {
      seen.push({ ...connected.data });
    });
    const socket = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      "x-test-user": "carol",
    });
    expect(socket.connected).toBe(true);
    expect(seen[0]?.user).toEqual({ id: "carol", name: "User carol" });
    const anonymous = await connectSocket(cleanups, started.origin, { origin: started.origin });
    expect(anonymous.connected).toBe(false);
  });

  it("answers 500 (HTTP) and an internal error (socket) when the function throws, and logs it", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, {
      auth: { mode: "function", authenticate },
      logger,
    });
    addWhoRoute(started);
    const response = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host, "x-test-user": "broken" },
    });
    expect(response.status).toBe(500);
    expect(response.body).not.toContain("identity provider down");
    const socket = await connectSocket(cleanups, started.origin, {
      origin: started.origin,
      "x-test-user": "broken",
    });
    expect(socket.connected).toBe(false);
    if (!socket.connected) expect(socket.error.data).toMatchObject({ code: "internal" });
    expect(lines.filter((line) => String(line.msg).includes("auth function threw"))).toHaveLength(
      2,
    );
  });

  it("refuses a function result that is not a user", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "function", authenticate: () => ({ id: "" }) as unknown as HostUser },
    });
    addWhoRoute(started);
    const response = await rawRequest(started.port, "/api/who", {
      headers: { host: started.host },
    });
    expect(response.status).toBe(401);
  });

  it("is refused on a non-loopback address only when left out", () => {
    expect(() =>
      createHttpLayer({ host: "0.0.0.0", auth: { mode: "function", authenticate } }),
    ).not.toThrow();
  });
});

describe("layer.authenticate()", () => {
  it("recognises the same requests as the routes", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "function", authenticate: () => ({ id: "dan", name: "Dan" }) },
    });
    const fake = {
      headers: {},
      socket: { remoteAddress: "127.0.0.1" },
    } as unknown as IncomingMessage;
    const session = await started.layer.authenticate(fake);
    expect(session?.user).toEqual({ id: "dan", name: "Dan" });
    const tokenLayer = createHttpLayer();
    cleanups.push(() => tokenLayer.close());
    expect(await tokenLayer.authenticate(fake)).toBeNull();
  });
});
