// What a view may run and what it may reach, in Chromium: inside the sandbox it may evaluate code,
// start workers from blobs and show blob:/data: media, as the reference host (ext-apps
// basic-host) allows; what it reaches over the network stays exactly what its resource declared.
// Listeners on other loopback ports record what arrives.
import { expect, test, type Page } from "@playwright/test";
import { openCard, viewFrame, viewOf } from "../support/card-frames";
import { sendMessage, signIn } from "../support/chat-page";
import { startAttackerServer, type AttackerServer } from "../support/attacker-server";
import { startHost, type RunningHost } from "../support/host";

/** The hostile app, run over stdio like an npm server (see support/mcp-servers.ts). */
const hostileSource = "./fixtures/hostile-app";

let host: RunningHost | undefined;
const listeners: AttackerServer[] = [];

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function startWithHostileApp(page: Page): Promise<void> {
  host = await startHost({ servers: [hostileSource] });
  await signIn(page, host);
}

async function listener(): Promise<AttackerServer> {
  const started = await startAttackerServer();
  listeners.push(started);
  return started;
}

/** The paths a listener received (the browser's own favicon requests aside). */
function paths(server: AttackerServer): string[] {
  return server.requests.map((request) => request.path).filter((path) => path !== "/favicon.ico");
}

test("a view that evaluates code, starts a blob: worker and shows a data: image runs", async ({
  page,
}) => {
  await startWithHostileApp(page);
  const { card } = await openCard(page, "/call open-capable");
  const view = viewOf(card);
  await expect(view.getByTestId("view-state")).toHaveText("initialised");
  for (const capability of ["eval", "function", "worker", "image"]) {
    await expect(view.getByTestId(capability), capability).toHaveText("ok");
  }
});

test("a view reaches exactly its declared connectDomains and resourceDomains", async ({ page }) => {
  await startWithHostileApp(page);
  const api = await listener();
  const cdn = await listener();
  const undeclared = await listener();
  const declared = await sendMessage(
    page,
    `/call declare-domains ${JSON.stringify({
      connectDomains: [api.origin],
      resourceDomains: [cdn.origin],
    })}`,
  );
  await expect(declared).toContainText("Declared.");
  const { card } = await openCard(page, "/call open-declared");
  await expect(viewOf(card).getByTestId("view-state")).toHaveText("initialised");
  const view = await viewFrame(card);
  const probe = (kind: "fetch" | "image", url: string) =>
    view.evaluate(({ kind, url }) => window.probe[kind](url), { kind, url });

  // Each answer comes back from the view once the browser has decided, so the listeners'
  // records below are complete for these requests.
  expect(await probe("fetch", `${undeclared.origin}/fetch`)).toBe("blocked: TypeError");
  expect(await probe("image", `${undeclared.origin}/pixel.gif`)).toBe("blocked");
  expect(await probe("fetch", `${cdn.origin}/fetch`)).toBe("blocked: TypeError");
  expect(await probe("image", `${api.origin}/pixel.gif`)).toBe("blocked");
  expect(await probe("fetch", `${api.origin}/fetch`)).toBe("reached: 200");
  expect(await probe("image", `${cdn.origin}/pixel.gif`)).toBe("loaded");

  expect(paths(api)).toEqual(["/fetch"]);
  expect(paths(cdn)).toEqual(["/pixel.gif"]);
  expect(paths(undeclared)).toEqual([]);
  // A request from the view never carries the host's cookie: the view is another site.
  expect(api.requests[0]?.cookie).toBeUndefined();
  expect(new URL(api.requests[0]?.origin ?? "").hostname).toMatch(/\.localhost$/);
});

declare global {
  interface Window {
    probe: { fetch(url: string): Promise<string>; image(url: string): Promise<string> };
  }
}

test("a view written for a same-origin parent reads its parent and its top, and hears its parent by event.source", async ({
  page,
}) => {
  host = await startHost({ servers: ["./fixtures/probe-app"] });
  await signIn(page, host);
  const { card } = await openCard(page, "/call open-probe");
  // The probe's handshake is by hand: it takes only messages whose source is window.parent.
  await expect(viewOf(card).getByTestId("probe-state")).toHaveText("initialised");
  const facts: unknown = JSON.parse(await viewOf(card).getByTestId("probe-parent").innerText());
  expect(facts).toEqual({
    parentIsSelf: false,
    anyProperty: "undefined",
    closed: false,
    postMessage: "function",
    parentOfParentIsTop: true,
    topIsParent: false,
    topFrames: true,
  });
});
