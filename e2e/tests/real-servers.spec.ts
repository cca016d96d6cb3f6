// Real MCP servers from npm, started over stdio by the host: their views run in the page's
// sandbox and every host callback they use is checked from both sides (what the host did, and
// what the view was answered). One host per test, with only the server under test: the two
// "basic" servers both name their tool `get-time`, and a model cannot be given one name twice.
import { hostname } from "node:os";
import { expect, test, type FrameLocator, type Locator } from "@playwright/test";
import { settledViewOf } from "../support/card-frames";
import { startHost, type RunningHost } from "../support/host";
import {
  answerApproval,
  callsOf,
  cardView,
  newTabFrom,
  openChat,
  sendChatMessage,
  standInForSite,
} from "../support/real-servers";

// Every view of these servers links to this site; the stand-in page keeps the tests offline.
const LINK_SITE = "https://modelcontextprotocol.io";
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Each test starts the host and an npm server process; on a busy 2-core machine that takes a while.
test.describe.configure({ timeout: 120_000 });

let host: RunningHost | null = null;

test.afterEach(async () => {
  await host?.stop();
  host = null;
});

// One of each way a view framework reaches its parent: React and Preact hold the App in hooks,
// Solid and Svelte in signals and stores, Vue deep-proxies it (and so its transport and the
// transport's window), vanilla JS holds it plainly.
const basicServers = [
  "basic-react",
  "basic-vanillajs",
  "basic-vue",
  "basic-preact",
  "basic-solid",
  "basic-svelte",
] as const;

for (const server of basicServers) {
  test(`${server}: the card renders, gets the time from the page, opens a link and composes a message`, async ({
    page,
    context,
  }, testInfo) => {
    host = await startHost({ servers: [server] });
    const running = host;
    await standInForSite(context, LINK_SITE);
    await openChat(page, running);

    // The model opens the card: the view shows the time of the opening call.
    const reply = await sendChatMessage(page, "/call get-time");
    await expect(reply).toContainText(/get-time returned: .*Z/);
    const openingTime =
      /get-time returned: .*?(\d{4}-[\d:.T-]+Z)/.exec(await reply.innerText())?.[1] ?? "";
    expect(openingTime).toMatch(ISO_TIME);
    const card = page.getByTestId("card");
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("card-title")).toHaveText("Get Time");
    const view = cardView(page);
    const serverTime = view.locator("p", { hasText: "Server Time:" }).locator("code");
    await expect(serverTime).toHaveText(openingTime);
    expect(await callsOf(running, `${server}/get-time`)).toBe(1);
    await page.screenshot({ path: testInfo.outputPath(`${server}-card.png`) });

    // "Get Server Time" from the page: the tool has no hints, so the person is asked first.
    await settledViewOf(card);
    await view.getByRole("button", { name: "Get Server Time" }).click();
    await answerApproval(page, "get-time", "allow-once");
    await expect.poll(() => callsOf(running, `${server}/get-time`)).toBe(2);
    await expect(serverTime).toHaveText(ISO_TIME);
    await expect(serverTime).not.toHaveText(openingTime);

    // Open Link: a new tab on the http(s) address, with no handle back to the chat page.
    const tab = await newTabFrom(context, () =>
      view.getByRole("button", { name: "Open Link" }).click(),
    );
    expect(tab.url()).toBe(`${LINK_SITE}/`);
    expect(new URL(tab.url()).protocol).toMatch(/^https?:$/);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();

    // Send Message: compose mode puts the text in the chat's empty input box, names the app and
    // leaves the focus where it was, so no stray Enter sends it.
    const composer = page.getByTestId("composer-input");
    await view.getByRole("button", { name: "Send Message" }).click();
    await expect(composer).toHaveValue("This is message text.");
    await expect(composer).not.toBeFocused();
    await expect(page.getByTestId("composer-author")).toBeVisible();
    await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  });
}

test("server-system-monitor: polls through its app-only tool, which the model is not offered", async ({
  page,
}, testInfo) => {
  host = await startHost({ servers: ["system-monitor"] });
  const running = host;
  await openChat(page, running);

  // With no app open the offline model lists the tools it may call.
  const hello = await sendChatMessage(page, "hello");
  await expect(hello).toContainText("No apps are open.");
  await expect(hello).toContainText("get-system-info");
  await expect(hello).not.toContainText("poll-system-stats");
  const refused = await sendChatMessage(page, "/call poll-system-stats");
  await expect(refused).toContainText('I have no tool named "poll-system-stats".');
  expect(await callsOf(running, "system-monitor/poll-system-stats")).toBe(0);

  const opened = await sendChatMessage(page, "/call get-system-info");
  await expect(opened).toContainText("get-system-info returned:");
  const view = cardView(page);
  await expect(view.locator("#info-hostname")).toHaveText(hostname());

  // The view polls at once after its tool result; allowing it for this card covers every poll.
  await answerApproval(page, "poll-system-stats", "allow-card");
  await expect
    .poll(() => callsOf(running, "system-monitor/poll-system-stats"), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  await expect(view.locator("#memory-percent")).toHaveText(/^\d+%$/);
  await expect(view.locator("#status-text")).toHaveText(/^\d{1,2}:\d{2}:\d{2}$/);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  expect(await callsOf(running, "system-monitor/get-system-info")).toBe(1);
  await page.screenshot({ path: testInfo.outputPath("system-monitor-card.png") });
});

/** The newest line of the debug view's own event log for one event type (e.g. `send-log`). */
function debugEvent(view: FrameLocator, type: string): Locator {
  const exactType = new RegExp(`^${type.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:$`);
  return view
    .locator("#event-log .log-entry")
    .filter({ has: view.locator(".log-type", { hasText: exactType }) })
    .last();
}

test("server-debug: each host callback reaches the host and the view gets the right reply", async ({
  page,
  context,
}, testInfo) => {
  host = await startHost({ servers: ["debug"] });
  const running = host;
  await standInForSite(context, LINK_SITE);
  await openChat(page, running);

  const opened = await sendChatMessage(page, "/call debug-tool");
  await expect(opened).toContainText('debug-tool returned: {"config":');
  const card = page.getByTestId("card");
  const view = cardView(page);
  await expect(debugEvent(view, "connected")).toBeAttached();
  await expect(debugEvent(view, "ontoolresult")).toContainText("Debug text content");
  // The view sends every event it sees to its app-only `debug-log` tool; the first call asks.
  await answerApproval(page, "debug-log", "allow-card");
  await expect.poll(() => callsOf(running, "debug/debug-log")).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("debug-card.png") });

  // Message: lands in the composer; the view was answered {} (accepted).
  await settledViewOf(card);
  await view.locator("#send-message-text-btn").click();
  const composer = page.getByTestId("composer-input");
  await expect(composer).toHaveValue("Hello from debug app!");
  await expect(composer).not.toBeFocused();
  await expect(page.getByTestId("composer-author")).toBeVisible();
  await expect(debugEvent(view, "send-message-result").locator(".log-payload-preview")).toHaveText(
    "{}",
  );

  // Logging, at each level: every line is in the card's log with its level.
  for (const level of ["debug", "info", "warning", "error"]) {
    // Each line the view logs makes it taller: the next click waits until its frame is still.
    await settledViewOf(card);
    await view.locator(`#log-${level}-btn`).click();
    await expect(debugEvent(view, "send-log").locator(".log-payload-preview")).toHaveText(
      JSON.stringify({ level, data: "Debug log data" }),
    );
  }
  await card.getByTestId("card-log-button").click();
  const cardLog = card.getByTestId("card-log");
  for (const level of ["debug", "info", "warning", "error"]) {
    await expect(
      cardLog.locator(`.mch-card__log-line--${level}`, { hasText: "Debug log data" }),
    ).toHaveCount(1);
  }
  await card.getByTestId("card-log-button").click();

  // Model context: the title bar says when the card reported, the model is told, and the
  // context inspector shows the same text.
  await expect(card.getByTestId("card-reported-at")).toHaveCount(0);
  // The card log opened and closed above it: the click waits until its frame is still.
  await settledViewOf(card);
  await view.locator("#update-context-text-btn").click();
  await expect(debugEvent(view, "update-context").locator(".log-payload-preview")).toHaveText(
    JSON.stringify({ type: "text", value: "Current app state info" }),
  );
  await expect(card.getByTestId("card-reported-at")).toHaveText(/^reported /);
  const title = (await card.getByTestId("card-title").innerText()).trim();
  const seen = await sendChatMessage(page, "hello");
  await expect(seen).toContainText("I can see 1 app:");
  await expect(seen).toContainText(`${title}: Current app state info`);
  await page.getByTestId("context-inspector-button").click();
  await expect(page.getByTestId("context-text")).toContainText("Current app state info");
  await page.getByTestId("context-inspector-close").click();

  // Display mode: the view declared no modes, so full screen is refused and the answer is the
  // mode in effect; the card stays inline.
  await settledViewOf(card);
  await view.locator("#display-fullscreen-btn").click();
  await expect(debugEvent(view, "display-mode-result").locator(".log-payload-preview")).toHaveText(
    JSON.stringify({ mode: "fullscreen", result: { mode: "inline" } }),
  );
  await expect(card).toHaveAttribute("data-display-mode", "inline");

  // Open link: a new tab without an opener; the view was answered {}.
  await settledViewOf(card);
  const tab = await newTabFrom(context, () => view.locator("#open-link-btn").click());
  expect(tab.url()).toBe(`${LINK_SITE}/`);
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();
  await expect(debugEvent(view, "open-link-result").locator(".log-payload-preview")).toHaveText(
    "{}",
  );

  // Server tools: each call from the page is gated, forwarded and counted; the view gets the result.
  await settledViewOf(card);
  await view.locator("#call-debug-refresh-btn").click();
  await answerApproval(page, "debug-refresh", "allow-once");
  await expect.poll(() => callsOf(running, "debug/debug-refresh")).toBe(1);
  await expect(debugEvent(view, "server-tool-result")).toContainText("Server timestamp:");
  await settledViewOf(card);
  await view.locator("#call-debug-tool-btn").click();
  await answerApproval(page, "debug-tool", "allow-once");
  await expect.poll(() => callsOf(running, "debug/debug-tool")).toBe(2);
  await expect(debugEvent(view, "server-tool-result")).toContainText("Debug text content");
  const logCalls = await callsOf(running, "debug/debug-log");
  await settledViewOf(card);
  await view.locator("#log-info-btn").click();
  await expect.poll(() => callsOf(running, "debug/debug-log")).toBeGreaterThan(logCalls);

  // Resize: with auto-resize off, the frame takes each size the view reports.
  const frame = card.getByTestId("card-iframe");
  await settledViewOf(card);
  await view.locator("#auto-resize-toggle").uncheck();
  await expect(debugEvent(view, "auto-resize-toggle").locator(".log-payload-preview")).toHaveText(
    JSON.stringify({ enabled: false }),
  );
  await settledViewOf(card);
  await view.locator("#resize-200x100-btn").click();
  await expect(frame).toHaveCSS("height", "100px");
  await settledViewOf(card);
  await view.locator("#resize-400x300-btn").click();
  await expect(frame).toHaveCSS("height", "300px");
  await expect(debugEvent(view, "manual-resize").locator(".log-payload-preview")).toHaveText(
    JSON.stringify({ width: 400, height: 300 }),
  );
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
});
