// Escapes from the sandbox, tried for real in Chromium by a hostile MCP server's own view
// (fixtures/hostile-app): scripting and navigating its proxy, sending its frame or a form to
// another local service, tossing cookies at the host, and WebRTC past `connect-src 'none'`. A
// listener on another loopback port stands for every other local service and records what
// reaches it; each test asserts the attack failed and that the honest path still works.
import { expect, test, type Frame, type Locator, type Page } from "@playwright/test";
import { openCard, proxyFrame, viewFrame, viewOf } from "../support/card-frames";
import { expectChatReady, sendMessage, signIn } from "../support/chat-page";
import { startAttackerServer, type AttackerServer } from "../support/attacker-server";
import { startHost, type RunningHost } from "../support/host";
import { startUdpRecorder } from "../support/udp-recorder";
import { requestFromView } from "../support/view-rpc";

/** The hostile app, run over stdio like an npm server (see support/mcp-servers.ts). */
const hostileSource = "./fixtures/hostile-app";

let host: RunningHost | undefined;
let attacker: AttackerServer | undefined;

test.beforeEach(async () => {
  attacker = await startAttackerServer();
});

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await attacker?.close();
  attacker = undefined;
});

function listener(): AttackerServer {
  if (attacker === undefined) throw new Error("The listener did not start.");
  return attacker;
}

async function startWithHostileApp(page: Page): Promise<RunningHost> {
  host = await startHost({ servers: [hostileSource] });
  await signIn(page, host);
  return host;
}

/** Opens the hostile app's view and waits until it did its handshake. */
async function openHostile(page: Page): Promise<{ card: Locator; view: Frame; proxy: Frame }> {
  const { card } = await openCard(page, "/call open-hostile");
  await expect(viewOf(card).getByTestId("view-state")).toHaveText("initialised");
  const view = await viewFrame(card);
  // The view is out of process (another site): its URL may reach Playwright a moment later.
  await expect.poll(() => view.url()).toContain("/view?");
  return { card, view, proxy: await proxyFrame(card) };
}

/** The URL of the document in a card's frame at `depth` (0: the proxy, 1: the view). */
async function frameUrl(card: Locator, depth: 0 | 1): Promise<string> {
  const proxy = await card.getByTestId("card-iframe").elementHandle();
  const proxyDocument = await proxy?.contentFrame();
  if (depth === 0) return proxyDocument?.url() ?? "";
  return proxyDocument?.childFrames()[0]?.url() ?? "";
}

test("a view can neither script its proxy nor navigate it, and no frame of the page reaches another local port", async ({
  page,
  context,
}) => {
  await startWithHostileApp(page);
  const pageResponse = await page.reload();
  await expectChatReady(page);
  const { card, view, proxy } = await openHostile(page);
  const proxyOrigin = new URL(proxy.url()).origin;

  // The host page may frame exactly the sandbox proxy's origin, no pattern and no other port.
  const pageCsp = pageResponse?.headers()["content-security-policy"] ?? "";
  expect(/frame-src ([^;]*)/.exec(pageCsp)?.[1]).toBe(proxyOrigin);
  // The view is on an origin of its own, not the proxy's, and not the host's site.
  const viewOrigin = new URL(view.url()).origin;
  expect(viewOrigin).not.toBe(proxyOrigin);
  expect(new URL(viewOrigin).hostname).toMatch(/\.localhost$/);

  const address = listener().origin;
  expect(await view.evaluate(() => window.attack.readProxy())).toBe("blocked: SecurityError");
  expect(
    await view.evaluate((url) => window.attack.runInProxy(url), `${address}/?via=proxy-script`),
  ).toBe("blocked: SecurityError");
  expect(
    await view.evaluate((url) => window.attack.formViaProxy(url), `${address}/?via=proxy-form`),
  ).toBe("blocked: SecurityError");
  await view.evaluate((url) => window.attack.navigateProxy(url), `${address}/?via=parent-location`);
  // The channel through the proxy still answers, and the proxy is still the proxy.
  expect((await requestFromView(view, "ping", {})).error).toBeUndefined();
  expect(await frameUrl(card, 0)).toContain(`${proxyOrigin}/proxy?`);

  // Even code running in the proxy itself cannot send its frame to another local service: the
  // host page's frame-src admits only the proxy's origin, so Chromium shows its error page.
  await proxy.evaluate((url) => {
    window.location.href = url;
  }, `${address}/?via=proxy`);
  await expect.poll(() => frameUrl(card, 0)).toMatch(/^chrome-error:/);
  expect(listener().requests).toEqual([]);

  // The listener does record what reaches it: an ordinary page can visit it.
  const visitor = await context.newPage();
  await visitor.goto(`${address}/?via=visitor`);
  // (The browser may also ask the visited page for its icon.)
  expect(
    listener()
      .requests.map((request) => request.path)
      .filter((path) => path !== "/favicon.ico"),
  ).toEqual(["/?via=visitor"]);
  await visitor.close();

  // The honest path: another card of the same app opens and talks to the host.
  const second = await openHostile(page);
  expect((await requestFromView(second.view, "ping", {})).error).toBeUndefined();
});

test("a view cannot send its own frame elsewhere or post a form anywhere", async ({ page }) => {
  await startWithHostileApp(page);
  const address = listener().origin;

  // A form at every target (form-action 'none'; a sandboxed view may navigate only itself, and
  // the proxy's frame-src admits only the view's own page): the frame ends on Chromium's error
  // page, and nothing reaches the listener.
  const forms = await openHostile(page);
  await forms.view.evaluate((url) => {
    void window.attack.submitForms(url);
  }, `${address}/form`);
  await expect.poll(() => frameUrl(forms.card, 1)).toMatch(/^chrome-error:/);

  // Its own frame, sent to the listener: refused the same way.
  const itself = await openHostile(page);
  await itself.view.evaluate((url) => window.attack.navigateSelf(url), `${address}/?via=self`);
  await expect.poll(() => frameUrl(itself.card, 1)).toMatch(/^chrome-error:/);
  expect(listener().requests).toEqual([]);

  // The honest path: a new card of the same app opens and talks to the host.
  const second = await openHostile(page);
  expect((await requestFromView(second.view, "ping", {})).error).toBeUndefined();
});

test("a view cannot set or shadow the host's session cookie", async ({ page, context }) => {
  const running = await startWithHostileApp(page);
  const sessionCookies = async () =>
    (await context.cookies()).filter((cookie) => cookie.name.includes("mch_session"));
  const before = await sessionCookies();
  expect(before).toHaveLength(1);
  const { view } = await openHostile(page);

  await view.evaluate(() => window.attack.tossCookies());
  // Not one cookie was added anywhere in the browser, so none can shadow the host's.
  expect(await sessionCookies()).toEqual(before);
  expect((await context.cookies()).filter((cookie) => cookie.value === "tossed")).toEqual([]);

  // The honest path: the person reloads and keeps chatting on the same socket session.
  await page.reload();
  await expectChatReady(page);
  const reply = await sendMessage(page, "Still signed in?");
  await expect(reply).toHaveAttribute("data-status", "complete");
  expect((await running.toolCalls())[`${hostileSource}/open-hostile`]).toBe(1);
});

test("a view cannot open a WebRTC connection: no UDP leaves, from its realm or any fresh one", async ({
  page,
  context,
}) => {
  await startWithHostileApp(page);
  const { view } = await openHostile(page);
  const forView = await startUdpRecorder();
  const forControl = await startUdpRecorder();
  try {
    const results = await view.evaluate(
      ({ port }) => window.attack.webrtc(port, "LEAKED-BY-THE-VIEW"),
      { port: forView.port },
    );
    for (const name of [
      "ownRealm",
      "prefixed",
      "appendedFrame",
      "indexedFrame",
      "markupFrame",
      "srcdocInitialRealm",
      "shadowMarkup",
      "shadowAttribute",
    ]) {
      expect(results[name], name).toMatch(/^blocked/);
    }
    expect(results["rtcGlobals"]).toBe("none");
    expect(results["worker"]).toBe("RTCPeerConnection is undefined");

    // Control: an ordinary page's peer connection does reach a UDP listener; by the time its
    // packet arrives, the view's attempts (made before) would have sent theirs.
    const control = await context.newPage();
    await control.goto(listener().url);
    await control.evaluate((port) => {
      const connection = new RTCPeerConnection({
        iceServers: [{ urls: `stun:127.0.0.1:${port}` }],
      });
      connection.createDataChannel("control");
      void connection.createOffer().then((offer) => connection.setLocalDescription(offer));
    }, forControl.port);
    await expect.poll(() => forControl.packets.length).toBeGreaterThan(0);
    expect(forView.packets).toEqual([]);
    await control.close();
    // No frame the view made ran with WebRTC (the one that ran says it was locked).
    const heard = await view.evaluate(() => window.heardFromFrames);
    expect(heard.filter((text) => /has RTC|made one/.test(text))).toEqual([]);
    expect(heard).toContain("written frame locked");

    // The honest path: the view still talks to the host.
    expect((await requestFromView(view, "ping", {})).error).toBeUndefined();
  } finally {
    await forView.close();
    await forControl.close();
  }
});

declare global {
  interface Window {
    attack: {
      readProxy(): string;
      runInProxy(url: string): string;
      formViaProxy(url: string): string;
      navigateProxy(url: string): string;
      navigateSelf(url: string): void;
      submitForms(url: string): Promise<string[]>;
      tossCookies(): string;
      webrtc(port: number, marker: string): Promise<Record<string, string>>;
    };
    heardFromFrames: string[];
  }
}
