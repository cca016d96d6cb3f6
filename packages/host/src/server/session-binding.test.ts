// Attacks on the token sign-in's session: the cookie reaches every port of the host's name
// (cookies ignore ports), so a program on another local port that receives it may replay it with
// a forged Origin. The cookie alone must open no socket and reach no data route; the host page,
// which also holds the binding, must still get in, and so must a browser that kept both across a
// restart. A page of the same site may also toss cookies of the same name that are sent first.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Request, Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { sessionOf } from "./require-auth";
import {
  connectSocket,
  memoryLogger,
  rawRequest,
  runCleanups,
  signIn,
  startLayer,
  type StartedLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** A listener of a stranger on another loopback port: it records the requests it receives. */
async function strangerListener(): Promise<{ port: number; received: IncomingMessage[] }> {
  const received: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    received.push(request);
    response.end("thanks");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, received };
}

/** Adds `GET /api/data`, a route that answers the person's data. */
function addDataRoute(started: StartedLayer): void {
  started.layer.routes.get("/api/data", (_request: Request, response: Response) => {
    response.json({ data: "private", session: sessionOf(response).sessionId });
  });
}

describe("a session cookie copied to another local port", () => {
  it("opens no socket when replayed with the host's Origin and Host, and the refusal is logged", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, { logger });
    const { cookie } = await signIn(started);
    let connections = 0;
    started.layer.io.on("connection", () => connections++);

    // The browser sends the cookie to a stranger's port (a typed visit, a loopback link)...
    const stranger = await strangerListener();
    await rawRequest(stranger.port, "/", {
      headers: { host: `127.0.0.1:${stranger.port}`, cookie },
    });
    const stolen = stranger.received[0]?.headers.cookie ?? "";
    expect(stolen).toBe(cookie);

    // ...which replays it with everything a browser on the host's page would send but the binding.
    for (const auth of [{}, { binding: "" }, { binding: "made-up" }, { binding: 42 }]) {
      const replay = await connectSocket(
        cleanups,
        started.origin,
        { origin: started.origin, host: started.host, cookie: stolen },
        auth,
      );
      expect(replay.connected, JSON.stringify(auth)).toBe(false);
      if (!replay.connected) {
        expect(replay.error.data).toMatchObject({ code: "unauthorized" });
        expect(replay.error.message).toContain("no proof of its sign-in");
      }
    }
    expect(connections).toBe(0);
    expect(lines.some((line) => String(line.msg).includes("without its binding"))).toBe(true);

    // The host page holds the binding too, and gets in.
    const page = await connectSocket(cleanups, started.origin, { origin: started.origin, cookie });
    expect(page.connected).toBe(true);
    expect(connections).toBe(1);
  });

  it("does not accept another session's binding", async () => {
    const started = await startLayer(cleanups);
    const first = await signIn(started);
    const second = await signIn(started, started.layer.signInUrl());
    const crossed = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie: first.cookie },
      { binding: second.binding },
    );
    expect(crossed.connected).toBe(false);
  });

  it("does not accept a binding made with another server's secret", async () => {
    const started = await startLayer(cleanups, { sessionSecret: "this server" });
    const other = await startLayer(cleanups, { sessionSecret: "another server" });
    const { cookie } = await signIn(started);
    const elsewhere = await signIn(other);
    const outcome = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie },
      { binding: elsewhere.binding },
    );
    expect(outcome.connected).toBe(false);
  });

  it("reaches no data route and no authenticate() without the binding header", async () => {
    const started = await startLayer(cleanups);
    addDataRoute(started);
    const { cookie, binding } = await signIn(started);
    const json = { host: started.host, cookie, accept: "application/json" };
    for (const headers of [
      json,
      { ...json, "x-mch-session-binding": "made-up" },
      { ...json, origin: started.origin, "sec-fetch-site": "same-origin" },
    ]) {
      const response = await rawRequest(started.port, "/api/data", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).not.toContain("private");
      expect(JSON.parse(response.body).error.message).toContain("x-mch-session-binding");
    }
    const fake = (headers: Record<string, string>) =>
      ({ headers, socket: { remoteAddress: "127.0.0.1" } }) as unknown as IncomingMessage;
    expect(await started.layer.authenticate(fake({ cookie }))).toBeNull();

    const honest = await rawRequest(started.port, "/api/data", {
      headers: { host: started.host, cookie, "x-mch-session-binding": binding },
    });
    expect(honest.status).toBe(200);
    expect(JSON.parse(honest.body).data).toBe("private");
    expect(
      await started.layer.authenticate(fake({ cookie, "x-mch-session-binding": binding })),
    ).toMatchObject({ user: { id: "operator" } });
  });

  it("still loads the web app's own files with the cookie alone (they hold nothing of the person's)", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const page = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie, accept: "text/html" },
    });
    expect(page.status).toBe(503); // signed in; no web app is built in this test
    expect(page.body).toContain("not built");
  });
});

describe("after a restart of the server and the browser", () => {
  it("lets the kept cookie and the kept binding in, when the secret persists", async () => {
    const options = { sessionSecret: "persisted across restarts" };
    const first = await startLayer(cleanups, options);
    const { cookie } = await signIn(first);
    await first.layer.close();
    const second = await startLayer(cleanups, options);
    // A restarted browser sends the persisted cookie; the page reads the binding from its
    // localStorage (connectSocket sends the one the sign-in gave, as that page does).
    const outcome = await connectSocket(cleanups, second.origin, {
      origin: second.origin,
      cookie,
    });
    expect(outcome.connected).toBe(true);
    const replay = await connectSocket(
      cleanups,
      second.origin,
      { origin: second.origin, cookie },
      {},
    );
    expect(replay.connected).toBe(false);
  });
});

describe("shadowing session cookies (tossed by a page of the same site)", () => {
  it("tries every mch_session value and accepts the one that verifies, on the socket and HTTP", async () => {
    const started = await startLayer(cleanups);
    addDataRoute(started);
    const { cookie, binding } = await signIn(started);
    const real = cookie.slice("mch_session=".length);
    const forgedMac = real.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    // A cookie with a longer Path is sent first; the cookie parser used to take only that one.
    const tossed = [
      `mch_session=x; ${cookie}`,
      `mch_session=v1.a.b3BlcmF0b3I.1.abc; mch_session=${forgedMac}; ${cookie}`,
      `${Array.from({ length: 40 }, (_, index) => `mch_session=junk${index}`).join("; ")}; ${cookie}`,
      `${cookie}; mch_session=x`,
    ];
    for (const header of tossed) {
      const socket = await connectSocket(
        cleanups,
        started.origin,
        { origin: started.origin, cookie: header },
        { binding },
      );
      expect(socket.connected, header.slice(0, 60)).toBe(true);
      const response = await rawRequest(started.port, "/api/data", {
        headers: { host: started.host, cookie: header, "x-mch-session-binding": binding },
      });
      expect(response.status).toBe(200);
    }
  });

  it("lets a fresh sign-in in although the tossed cookie is still there", async () => {
    const started = await startLayer(cleanups);
    // The tossed cookie (Path=/socket.io) never reaches the sign-in URL, only the socket.
    const { cookie, binding } = await signIn(started);
    const outcome = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie: `mch_session=tossed-by-a-view; ${cookie}` },
      { binding },
    );
    expect(outcome.connected).toBe(true);
  });
});

describe("the trusted-header mode", () => {
  it("needs no binding: the proxy's header is the credential, as before", async () => {
    const started = await startLayer(cleanups, {
      auth: { mode: "trusted-header", proxies: ["127.0.0.1"] },
    });
    addDataRoute(started);
    const outcome = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, "x-forwarded-user": "alice" },
      {},
    );
    expect(outcome.connected).toBe(true);
    const response = await rawRequest(started.port, "/api/data", {
      headers: { host: started.host, "x-forwarded-user": "alice" },
    });
    expect(response.status).toBe(200);
  });
});
