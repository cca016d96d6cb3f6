// A replayed session cookie, in Chromium: the browser sends the host's session cookie to another
// port of 127.0.0.1 (cookies ignore ports), where a stranger's listener records it and replays it
// with the host's Origin. The replay opens no socket; the stranger's page cannot read the binding
// the host page keeps in its storage; the host page keeps working, also after the browser restarts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, test } from "@playwright/test";
import { io } from "socket.io-client";
import { expectChatReady, signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

const hosts: RunningHost[] = [];
const servers: Server[] = [];

test.afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A stranger's listener on another loopback port; it records the Cookie headers it gets. */
async function strangerListener(): Promise<{ origin: string; cookies: string[] }> {
  const cookies: string[] = [];
  const server = createServer((request, response) => {
    cookies.push(request.headers.cookie ?? "");
    response.setHeader("content-type", "text/html");
    response.end("<!doctype html><title>elsewhere</title><p>Another program's page</p>");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cookies };
}

/** Opens a socket.io client as a program would, with the given cookie and the host's Origin. */
function replay(origin: string, cookie: string): Promise<{ connected: boolean; code?: unknown }> {
  return new Promise((resolve, reject) => {
    const client = io(origin, {
      transports: ["websocket"],
      extraHeaders: { cookie, origin },
      auth: { tabId: "stranger" },
      reconnection: false,
      timeout: 10_000,
    });
    const timer = setTimeout(() => {
      client.close();
      reject(new Error("The server neither accepted nor refused the socket in 10 s."));
    }, 10_000);
    client.on("connect", () => {
      clearTimeout(timer);
      client.close();
      resolve({ connected: true });
    });
    client.on("connect_error", (error: Error & { data?: { code?: unknown } }) => {
      clearTimeout(timer);
      client.close();
      resolve({ connected: false, code: error.data?.code });
    });
  });
}

test("a session cookie the browser sends to another local port opens no socket there", async ({
  page,
}) => {
  const host = await startHost();
  hosts.push(host);
  await signIn(page, host);
  expect(await page.evaluate(() => localStorage.getItem("mch-session-binding"))).toMatch(
    /^[\w-]{43}$/,
  );

  const stranger = await strangerListener();
  await page.goto(`${stranger.origin}/`);
  await expect(page.locator("p")).toHaveText("Another program's page");
  const stolen = stranger.cookies[0] ?? "";
  expect(stolen).toMatch(/mch_session=v1\./);
  // The stranger's page is another origin: the host page's storage is not its storage.
  expect(await page.evaluate(() => localStorage.getItem("mch-session-binding"))).toBeNull();

  expect(await replay(host.origin, stolen)).toEqual({ connected: false, code: "unauthorized" });

  // The person's page still gets in.
  await page.goto(`${host.origin}/`);
  await expectChatReady(page);
});

test("a sign-in survives a browser restart (the cookie and the page's storage both persist)", async ({
  browserName,
}, testInfo) => {
  test.skip(browserName !== "chromium", "Chromium only");
  const host = await startHost();
  hosts.push(host);
  const profile = mkdtempSync(join(tmpdir(), "mch-profile-"));
  const launchOptions = testInfo.project.use.launchOptions ?? {};
  try {
    const first = await chromium.launchPersistentContext(profile, launchOptions);
    const page = first.pages()[0] ?? (await first.newPage());
    await signIn(page, host);
    await first.close();

    const second = await chromium.launchPersistentContext(profile, launchOptions);
    const again = second.pages()[0] ?? (await second.newPage());
    await again.goto(`${host.origin}/`);
    await expectChatReady(again);
    await second.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
