// The pages of server sign-in, with a stand-in service: what the person reads when the flow is
// unknown, comes back to another browser, fails unexpectedly or the host is still starting; the
// popup's first page binds the browser and goes on; the closing script; the metadata document.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../testing/http-layer-support";
import { signInFailure } from "../oauth/sign-in-errors";
import { serverSignInRoutes, type ServerSignInRoutesPort } from "./server-sign-in-routes";
import { SessionCookies } from "./session-cookie";

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** Serves the routes with `port` (null: the host is starting) and returns the base URL. */
async function serve(port: ServerSignInRoutesPort | null): Promise<string> {
  const app = express();
  const cookies = new SessionCookies({
    secure: false,
    secret: "a-test-secret-of-at-least-32-characters",
  });
  app.use(serverSignInRoutes({ signIn: () => port, cookies, logger: memoryLogger().logger }));
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const text = async (response: Response) => (await response.text()).replace(/&#39;/g, "'");

describe("the pages of server sign-in", () => {
  it("says the host is starting before the service is there", async () => {
    const base = await serve(null);
    const answer = await fetch(`${base}/oauth/callback?state=x&code=y`);
    expect(answer.status).toBe(503);
    expect(await text(answer)).toContain("Try again in a moment.");
  });

  it("sends the popup on to the authorization server with the flow's cookie, and finishes only in that browser", async () => {
    const finished: string[] = [];
    const base = await serve({
      opened: async () => ({
        authorizationUrl: "https://auth.example.com/authorize?x=1",
        state: "state-1",
      }),
      finish: async (params) => {
        finished.push(params.get("code") ?? "");
        return { server: "notes" };
      },
      clientMetadata: () => null,
    });
    const start = await fetch(`${base}/oauth/start/flow-1`, { redirect: "manual" });
    expect(start.status).toBe(303);
    expect(start.headers.get("location")).toBe("https://auth.example.com/authorize?x=1");
    const cookie = start.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/oauth\/callback/i);

    const elsewhere = await fetch(`${base}/oauth/callback?state=state-1&code=c`);
    expect(elsewhere.status).toBe(400);
    expect(await text(elsewhere)).toContain(
      "This sign-in was not started in this browser, or its answer was changed on the way, so it was refused. Close this window and start again from Servers in the chat.",
    );
    expect(finished).toEqual([]);

    const here = await fetch(`${base}/oauth/callback?state=state-1&code=c`, {
      headers: { cookie: cookie.split(";")[0] ?? "" },
    });
    expect(here.status).toBe(200);
    const page = await text(here);
    expect(page).toContain("You are signed in to &#34;notes&#34;.");
    expect(here.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(finished).toEqual(["c"]);
    const script = await fetch(`${base}/oauth/close.js`);
    expect(await script.text()).toBe("window.close();\n");
  });

  it("shows the service's sentence for a flow it does not know, and a general one for a failure it did not describe", async () => {
    const base = await serve({
      opened: async (flowId) => {
        if (flowId === "boom") throw new Error("socket hang up at 10.0.0.1");
        throw signInFailure("unknown-state");
      },
      finish: async () => ({ server: "notes" }),
      clientMetadata: () => ({ client_id: "https://chat.example.test/oauth/client-metadata.json" }),
    });
    const unknown = await fetch(`${base}/oauth/start/old`, { redirect: "manual" });
    expect(unknown.status).toBe(400);
    expect(await text(unknown)).toContain(
      "This sign-in is not one this host started, or it has expired. Start again from Servers in the chat.",
    );
    const broken = await fetch(`${base}/oauth/start/boom`, { redirect: "manual" });
    expect(broken.status).toBe(500);
    const page = await text(broken);
    expect(page).toContain(
      "Something went wrong on this host while signing you in. Close this window and try again from Servers in the chat.",
    );
    expect(page).not.toContain("10.0.0.1");
    const metadata = await fetch(`${base}/oauth/client-metadata.json`);
    expect(await metadata.json()).toEqual({
      client_id: "https://chat.example.test/oauth/client-metadata.json",
    });
  });
});
