// Attacks on the sandbox, the host page and the server, each tried for real in Chromium and each
// asserting that it failed. The attacker is a view's own script (run inside the view's frame),
// another window or origin, or a page that loads the proxy where it does not belong.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { io } from "socket.io-client";
import {
  cards,
  openCard,
  proxyFrame,
  scrolledToViewOf,
  viewFrame,
  viewOf,
} from "../support/card-frames";
import { conversationHash, expectChatReady, sendMessage, signIn } from "../support/chat-page";
import { embed, openSocket, postResourceReadyTo, recordMessages } from "../support/attack-pages";
import { startAttackerServer, type AttackerServer } from "../support/attacker-server";
import { startHost, type RunningHost } from "../support/host";
import { fetchLocal, viewUrlOfProxyPage } from "../support/local-fetch";
import { requestFromView } from "../support/view-rpc";

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

/** The attacker's page on its own origin (see attacker-server.ts). */
function attackerPage(): string {
  if (attacker === undefined) throw new Error("The attacker's server did not start.");
  return attacker.url;
}

/** The hostile app (fixtures/hostile-app), whose declared view asks for any CSP it is told. */
const hostileSource = "./fixtures/hostile-app";

async function started(options: { servers?: string[] } = {}): Promise<RunningHost> {
  host = await startHost(options);
  return host;
}

/** Opens the Notes card with a known text and waits until its view shows it. */
async function openNotes(page: Page, text = "Buy milk"): Promise<Locator> {
  const { card } = await openCard(page, `/call open-notes ${JSON.stringify({ text })}`);
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue(text);
  return card;
}

/** The card's proxy URL, as the page put it in the iframe. */
async function proxyUrlOf(card: Locator): Promise<string> {
  const source = await card.getByTestId("card-iframe").getAttribute("src");
  if (source === null) throw new Error("The card's iframe has no src.");
  return source;
}

test("a view cannot read the host page's DOM, cookies or storage", async ({ page }) => {
  const host = await started();
  await signIn(page, host);
  const view = await viewFrame(await openNotes(page));
  const hostCookies = await page.context().cookies(host.origin);
  expect(hostCookies.length).toBeGreaterThan(0);
  for (const cookie of hostCookies) expect(cookie.httpOnly).toBe(true);
  await page.evaluate(() => window.localStorage.setItem("host-secret", "do not leak"));

  const seen = await view.evaluate(async (hostOrigin) => {
    const attempt = (read: () => unknown): string => {
      try {
        return `read: ${String(read())}`;
      } catch (error) {
        return error instanceof Error ? error.name : "thrown";
      }
    };
    const host = window.parent.parent as Window;
    let fetched: string;
    try {
      const response = await fetch(`${hostOrigin}/`, { credentials: "include" });
      fetched = `read: ${response.status}`;
    } catch (error) {
      fetched = error instanceof Error ? error.name : "thrown";
    }
    return {
      topDocument: attempt(() => window.top?.document.title),
      hostBody: attempt(() => host.document.body.innerHTML.length),
      hostLocation: attempt(() => host.location.href),
      hostStorage: attempt(() => host.localStorage.getItem("host-secret")),
      hostSessionStorage: attempt(() => host.sessionStorage.length),
      cookie: document.cookie,
      origin: window.location.origin,
      fetched,
    };
  }, host.origin);

  expect(seen.topDocument).toBe("SecurityError");
  expect(seen.hostBody).toBe("SecurityError");
  expect(seen.hostLocation).toBe("SecurityError");
  expect(seen.hostStorage).toBe("SecurityError");
  expect(seen.hostSessionStorage).toBe("SecurityError");
  for (const cookie of hostCookies) {
    expect(seen.cookie).not.toContain(cookie.name);
    expect(seen.cookie).not.toContain(cookie.value);
  }
  expect(seen.origin).not.toBe(host.origin);
  // The view's CSP has no connect-src for the host: a credentialed request never leaves.
  expect(seen.fetched).toBe("TypeError");
});

test("a forged sandbox-resource-ready from the view is ignored by the proxy and the host", async ({
  page,
}) => {
  const host = await started();
  await signIn(page, host);
  const card = await openNotes(page);
  const proxy = await proxyFrame(card);
  const view = await viewFrame(card);
  const dropped = page.waitForEvent("console", (message) =>
    message.text().includes("Sandbox proxy dropped a message the view posted to it"),
  );

  await view.evaluate(() => {
    const forged = {
      jsonrpc: "2.0",
      method: "ui/notifications/sandbox-resource-ready",
      params: { html: "<p data-testid='forged'>replaced</p>" },
    };
    // On the view's channel to the host (window.parent), straight to the host page, and to the
    // real proxy window (found among the page's frames), which would build a new view from it.
    window.parent.postMessage(forged, "*");
    window.parent.postMessage([forged], "*");
    const top = window.top ?? window;
    top.postMessage(forged, "*");
    const frames = top.frames;
    for (let i = 0; i < frames.length; i += 1) {
      for (let j = 0; j < (frames[i]?.length ?? 0); j += 1) {
        if (frames[i]?.[j] === window) frames[i]?.postMessage(forged, "*");
      }
    }
  });
  await dropped;
  // A real request after the forged ones comes back: the channel is intact and in order.
  const answer = await requestFromView(view, "ping", {});
  expect(answer.error).toBeUndefined();

  expect(view.isDetached()).toBe(false);
  expect(proxy.childFrames()).toHaveLength(1);
  expect(proxy.childFrames()[0]).toBe(view);
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue("Buy milk");
  await expect(viewOf(card).getByTestId("forged")).toHaveCount(0);
  await expect(card).toHaveAttribute("data-status", "ready");
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1 });
});

for (const origin of [
  { name: "an origin of its own", url: () => attackerPage() },
  { name: "the card's own sandbox origin", url: (proxyUrl: string) => proxyUrl },
]) {
  test(`messages from another window on ${origin.name} are ignored by the host and the proxy`, async ({
    page,
    context,
  }) => {
    const host = await started();
    await signIn(page, host);
    const firstCard = await openNotes(page, "Original");
    const hash = await conversationHash(page);
    const proxyUrl = await proxyUrlOf(firstCard);

    // The attacker's page holds a handle on the chat's window: either it opened the chat itself,
    // or (a sandbox origin is another site, and the chat would open signed out from there) the
    // chat opened it, leaving it an opener.
    let attacker: Page;
    let chat: Page;
    if (origin.url(proxyUrl) === proxyUrl) {
      chat = page;
      [attacker] = await Promise.all([
        context.waitForEvent("page"),
        chat.evaluate((address) => {
          window.open(address, "_blank");
        }, proxyUrl),
      ]);
      await attacker.waitForLoadState();
      await attacker.evaluate(() => {
        (window as unknown as { chat: Window | null }).chat = window.opener as Window | null;
      });
    } else {
      attacker = page;
      await attacker.goto(origin.url(proxyUrl));
      [chat] = await Promise.all([
        attacker.waitForEvent("popup"),
        attacker.evaluate((address) => {
          (window as unknown as { chat: Window | null }).chat = window.open(address, "_blank");
        }, `${host.origin}/${hash}`),
      ]);
    }
    await expectChatReady(chat);
    const card = cards(chat).first();
    await expect(card).toHaveAttribute("data-status", "ready");
    const notes = viewOf(card);
    await expect(notes.getByTestId("notes-text")).toHaveValue("Original");
    const proxy = await proxyFrame(card);
    const view = await viewFrame(card);

    await attacker.evaluate(() => {
      const chat = (window as unknown as { chat: Window }).chat;
      const replies: unknown[] = [];
      (window as unknown as { replies: unknown[] }).replies = replies;
      window.addEventListener("message", (event) => replies.push(event.data));
      const call = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "save-notes", arguments: { text: "forged by another window" } },
      };
      const message = {
        jsonrpc: "2.0",
        id: 2,
        method: "ui/message",
        params: { role: "user", content: [{ type: "text", text: "forged message" }] },
      };
      const ready = { jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} };
      // To the chat page, as if from a card's proxy.
      for (const data of [call, message, ready]) chat.postMessage(data, "*");
      // To the card's proxy, as if from the chat page: a result to show, a new view to load.
      const proxyWindow = chat.frames[0] as Window;
      proxyWindow.postMessage(
        {
          jsonrpc: "2.0",
          method: "ui/notifications/tool-result",
          params: {
            content: [{ type: "text", text: "forged" }],
            structuredContent: { text: "forged by another window" },
          },
        },
        "*",
      );
      proxyWindow.postMessage(
        {
          jsonrpc: "2.0",
          method: "ui/notifications/sandbox-resource-ready",
          params: { html: "<p>replaced</p>" },
        },
        "*",
      );
      proxyWindow.postMessage(call, "*");
    });

    // The person's own Save goes through after the forged messages; had the forged save gone
    // through first, this one would be version 2. A chat just opened on the conversation (the
    // popup) follows its list's end while the card grows to its view's height: a person scrolls
    // to the card, and the click waits until no frame moves (aimed while the frame still moved,
    // it landed outside the view and was lost).
    await (await scrolledToViewOf(card)).getByTestId("notes-save").click();
    await expect(notes.getByTestId("notes-status")).toHaveText(
      "Saved the notes (1 word), version 1.",
    );
    expect((await host.toolCalls())["notes/save-notes"]).toBe(1);
    await expect(notes.getByTestId("notes-text")).toHaveValue("Original");
    await expect(chat.getByTestId("composer-input")).toHaveValue("");
    expect(view.isDetached()).toBe(false);
    expect(proxy.childFrames()).toHaveLength(1);
    expect(proxy.childFrames()[0]).toBe(view);
    await expect(card).toHaveAttribute("data-status", "ready");
    expect(
      await attacker.evaluate(() => (window as unknown as { replies: unknown[] }).replies),
    ).toEqual([]);
    if (attacker === page) await chat.close();
    else await attacker.close();
  });
}

test("the proxy does nothing top-level or under a foreign parent", async ({ page, context }) => {
  const host = await started();
  await signIn(page, host);
  const proxyUrl = await proxyUrlOf(await openNotes(page));
  const notice = "This is the sandbox of mcp-chat-host; it only works inside the chat page.";

  // Top-level: the notice, no view frame, and a resource-ready posted to it builds nothing.
  const topLevel = await context.newPage();
  const refusedTopLevel = topLevel.waitForEvent("console", (message) =>
    message.text().includes("Sandbox proxy stopped: opened top-level"),
  );
  await topLevel.goto(proxyUrl);
  await refusedTopLevel;
  await expect(topLevel.locator("body")).toHaveText(notice);
  await postResourceReadyTo(topLevel.mainFrame());
  await expect(topLevel.locator("iframe")).toHaveCount(0);
  await topLevel.close();

  // In a foreign page with the real headers: frame-ancestors keeps the browser from loading it.
  const foreign = await context.newPage();
  await foreign.goto(attackerPage());
  await recordMessages(foreign);
  await embed(foreign, proxyUrl);
  // The proxy is another site, so its frame is out of process: its URL reaches Playwright after
  // the load event the page saw.
  await expect
    .poll(
      () =>
        foreign
          .frames()
          .find((frame) => frame !== foreign.mainFrame())
          ?.url() ?? "",
    )
    .toMatch(/^chrome-error:/);
  expect(await foreign.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([]);

  // Even if a browser ignored frame-ancestors (simulated by removing it), the script refuses.
  const unframed = await context.newPage();
  const sandboxOrigin = new URL(proxyUrl).origin;
  const isProxy = (url: URL) => url.origin === sandboxOrigin && url.pathname === "/proxy";
  await unframed.route(isProxy, async (route) => {
    const response = await fetchLocal(route.request().url());
    const headers = { ...response.headers };
    headers["content-security-policy"] = (headers["content-security-policy"] ?? "").replace(
      /frame-ancestors[^;]*/,
      "frame-ancestors *",
    );
    await route.fulfill({ status: response.status, headers, body: response.body });
  });
  const refusedForeign = unframed.waitForEvent("console", (message) =>
    message.text().includes(`Sandbox proxy stopped: embedded by ${attacker?.origin ?? ""}`),
  );
  await unframed.goto(attackerPage());
  await recordMessages(unframed);
  await embed(unframed, proxyUrl);
  await refusedForeign;
  const framed = unframed.frames().find((frame) => frame.url().startsWith(proxyUrl));
  if (framed === undefined) throw new Error("The proxy frame did not load.");
  await expect(framed.locator("body")).toHaveText(notice);
  await postResourceReadyTo(framed);
  expect(framed.childFrames()).toEqual([]);
  // It never said it was ready to the foreign page.
  expect(await unframed.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual(
    [],
  );
});

test("a javascript: link from a view is refused and logged; no page opens", async ({
  page,
  context,
}) => {
  const host = await started();
  await signIn(page, host);
  const card = await openNotes(page);
  const view = await viewFrame(card);
  const opened: string[] = [];
  context.on("page", (newPage) => opened.push(newPage.url()));
  // A stand-in for an ordinary web page, so the test needs no network.
  await context.route("https://docs.example.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<p>Docs</p>" }),
  );

  for (const url of [
    "javascript:alert(document.domain)",
    "JavaScript:fetch('/')",
    "data:text/html,<script>alert(1)</script>",
  ]) {
    const answer = await requestFromView(view, "ui/open-link", { url });
    expect(answer.result?.isError, url).toBe(true);
  }
  // An ordinary link opens: the one new page proves the refused ones did not open before it.
  const allowed = "https://docs.example.com/opened-by-the-view";
  const [newPage, answer] = await Promise.all([
    context.waitForEvent("page"),
    requestFromView(view, "ui/open-link", { url: allowed }),
  ]);
  expect(answer.result?.isError).toBeUndefined();
  await newPage.waitForURL(allowed);
  // Opened without a handle back to the chat page.
  expect(await newPage.evaluate(() => window.opener)).toBeNull();
  expect(context.pages()).toHaveLength(2);
  expect(opened).toHaveLength(1);

  await card.getByTestId("card-log-button").click();
  const log = card.getByTestId("card-log");
  await expect(log).toContainText(
    'The app asked to open a "javascript:" link; only http and https links are opened.',
  );
  await expect(log).toContainText(
    'The app asked to open a "data:" link; only http and https links are opened.',
  );
  await expect(log).toContainText(`Opened ${allowed} in a new tab.`);
});

test("a CSP domain carrying '; script-src *' does not loosen the policy", async ({ page }) => {
  const host = await started({ servers: [hostileSource] });
  await signIn(page, host);
  // The sandbox's origin, to name it among the declared domains.
  const sandboxOrigin = new URL(await proxyUrlOf(await openNotes(page))).origin;
  // The app declares the crafted domains; the host signs the proxy URL that carries them.
  const csp = {
    connectDomains: [
      "https://api.example.com; script-src *",
      "https://ok.example.com",
      host.origin,
      sandboxOrigin,
    ],
    resourceDomains: ["https://cdn.example.com 'unsafe-eval'", "*", "https://cdn.example.org"],
    frameDomains: ["javascript:alert(1)", "https://frame.example.com;frame-ancestors *"],
    baseUriDomains: ["https://base.example.com\nscript-src *"],
  };
  await expect(
    await sendMessage(page, `/call declare-domains ${JSON.stringify(csp)}`),
  ).toContainText("Declared.");
  const { card } = await openCard(page, "/call open-declared");
  await expect(viewOf(card).getByTestId("view-state")).toHaveText("initialised");
  const proxyUrl = new URL(await proxyUrlOf(card));

  // The view's policy is the header of its own document, at the signed URL the proxy page names.
  const proxyPage = await fetchLocal(proxyUrl.toString());
  expect(proxyPage.status).toBe(200);
  const viewPage = await fetchLocal(viewUrlOfProxyPage(proxyPage.body));
  expect(viewPage.status).toBe(200);
  const header = viewPage.headers["content-security-policy"] ?? "";
  const directives = header
    .split(";")
    .map((directive) => directive.trim())
    .filter((directive) => directive !== "");
  const byName = new Map<string, string[]>();
  for (const directive of directives) {
    const [name = "", ...values] = directive.split(/\s+/);
    // A second directive of the same name would be ignored by the browser, but must not exist.
    expect(byName.has(name), `${name} appears once`).toBe(false);
    byName.set(name, values);
  }
  // What runs is the fixed relaxed set plus the accepted resource domain, nothing injected.
  expect(byName.get("script-src")).toEqual([
    "'self'",
    "'unsafe-inline'",
    "'unsafe-eval'",
    "blob:",
    "data:",
    "https://cdn.example.org",
  ]);
  for (const values of byName.values()) expect(values).not.toContain("*");
  // What it reaches is exactly what was declared and accepted.
  expect(byName.get("connect-src")).toEqual(["https://ok.example.com"]);
  expect(byName.get("frame-src")).toEqual(["'none'"]);
  expect(byName.get("base-uri")).toEqual(["'self'"]);
  expect(byName.get("form-action")).toEqual(["'none'"]);
  expect(byName.get("frame-ancestors")).toEqual([proxyUrl.origin, host.origin]);
  expect(byName.get("object-src")).toEqual(["'none'"]);
  for (const dropped of [
    "api.example.com",
    "cdn.example.com ",
    "frame.example.com",
    "base.example",
  ])
    expect(header).not.toContain(dropped);
  expect(header).not.toContain("javascript:");
  expect(header).not.toContain("\n");
  // A hand-made view URL with a looser policy is refused.
  const forged = new URL(viewUrlOfProxyPage(proxyPage.body));
  forged.searchParams.set(
    "csp",
    Buffer.from(JSON.stringify({ connectDomains: ["https://evil.example"] })).toString("base64url"),
  );
  expect((await fetchLocal(forged.toString())).status).toBe(403);
});

/**
 * The probe app (fixtures/probe-app): support/mcp-servers.ts resolves a `./fixtures/` name as a
 * package path relative to itself, so the fixture runs over stdio like an npm server.
 */
const probeSource = "./fixtures/probe-app";

test("a view cannot call another source's tool or a tool only the model may call", async ({
  page,
}) => {
  const host = await started({ servers: [probeSource] });
  await signIn(page, host);
  const notesView = await viewFrame(await openNotes(page));
  for (const name of ["add-task", "show-table"]) {
    const answer = await requestFromView(notesView, "tools/call", { name, arguments: {} });
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain(`The app can't call the tool "${name}".`);
  }

  const probe = (await openCard(page, "/call open-probe")).card;
  await expect(viewOf(probe).getByTestId("probe-state")).toHaveText("initialised");
  const answer = await requestFromView(await viewFrame(probe), "tools/call", {
    name: "model-only-secret",
    arguments: {},
  });
  expect(answer.result).toBeUndefined();
  expect(answer.error?.code).toBe(-32602);
  expect(answer.error?.message).toContain(`The app can't call the tool "model-only-secret".`);
  expect(await host.toolCalls()).toEqual({
    "notes/open-notes": 1,
    [`${probeSource}/open-probe`]: 1,
  });
  // The tool exists and works for the model: the refusal is about who asked.
  const reply = await sendMessage(page, "/call model-only-secret");
  await expect(reply).toContainText("model-only-secret returned: THE SECRET RAN");
  expect((await host.toolCalls())[`${probeSource}/model-only-secret`]).toBe(1);
});

test("no token gives no UI and no socket", async ({ page, browser }) => {
  const host = await started();
  const socketUrl = `${host.origin.replace(/^http/, "ws")}/socket.io/?EIO=4&transport=websocket`;

  // A browser without the cookie gets the sign-in notice, not the app.
  const stranger = await browser.newContext();
  try {
    const strangerPage = await stranger.newPage();
    const response = await strangerPage.goto(`${host.origin}/`);
    expect(response?.status()).toBe(401);
    await expect(strangerPage.getByRole("heading", { level: 1 })).toHaveText(
      "Sign in to mcp-chat-host",
    );
    await expect(strangerPage.locator("body")).toContainText(
      "You are not signed in to this mcp-chat-host server.",
    );
    await expect(strangerPage.getByTestId("app")).toHaveCount(0);
  } finally {
    await stranger.close();
  }

  // A client from the right origin without the cookie: refused at the handshake.
  const refusal = await new Promise<{ code?: unknown }>((resolve, reject) => {
    const client = io(host.origin, {
      transports: ["websocket"],
      extraHeaders: { Origin: host.origin },
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
      resolve({ code: "connected" });
    });
    client.on("connect_error", (error: Error & { data?: { code?: unknown } }) => {
      clearTimeout(timer);
      client.close();
      resolve({ code: error.data?.code });
    });
  });
  expect(refusal.code).toBe("unauthorized");

  // A signed-in browser on another origin (its cookie goes along): refused by the Origin check.
  await signIn(page, host);
  const fromChat = await openSocket(page.mainFrame(), socketUrl);
  expect(fromChat).toBe("open");
  await page.goto(attackerPage());
  expect(await openSocket(page.mainFrame(), socketUrl)).toBe("failed");
});
