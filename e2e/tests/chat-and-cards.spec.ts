// The chat with the example apps, end to end in Chromium against the real server and the offline
// model: a message opens a card, the view's own tool calls pass the gate, what the view reports
// reaches the next reply, an app message lands in the composer, and display modes keep the view.
import { expect, test } from "@playwright/test";
import { cards, openCard, viewFrame, viewOf } from "../support/card-frames";
import { replies, sendMessage, signIn, userMessages, waitForReply } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";
import { watchSocketFrames } from "../support/socket-frames";

let host: RunningHost | undefined;

test.beforeEach(async () => {
  host = await startHost();
});

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function running(): RunningHost {
  if (host === undefined) throw new Error("The host did not start.");
  return host;
}

test("a message opens a card whose buttons call their tools through the gate", async ({
  page,
}, testInfo) => {
  const host = running();
  // Chromium reports each CSP entry it cannot read (an IPv6 `frame-ancestors` origin) in the
  // console of the frame that got it, once per page.
  const cspComplaints: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content-Security-Policy")) cspComplaints.push(message.text());
  });
  await signIn(page, host);

  const { card, reply } = await openCard(page, '/call open-notes {"text":"Buy milk"}');
  await expect(card.getByTestId("card-title")).toHaveText("Open notes");
  const notes = viewOf(card);
  await expect(notes.getByTestId("notes-text")).toHaveValue("Buy milk");
  await expect(notes.getByTestId("notes-words")).toHaveText("2 words");
  await expect(reply).toContainText("open-notes returned:");
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1 });
  // The sandbox's warm frame (cards/sandbox-warmup.ts): one, hidden, on the proxy's empty
  // `/warm` document, and not a card.
  const warm = page.locator('iframe[data-testid="sandbox-warmup"]');
  await expect(warm).toHaveCount(1);
  await expect(warm).toBeHidden();
  await expect(warm).toHaveAttribute("sandbox", "allow-same-origin");
  await expect(warm).toHaveAttribute("src", /\/warm\?view=notes$/);
  // Both warm documents load (the proxy's and, inside it, the view origin's); a refused frame
  // would show Chromium's error page instead.
  await expect
    .poll(() => page.frames().filter((frame) => frame.url().endsWith("/warm")).length)
    .toBe(1);
  await expect
    .poll(() => page.frames().filter((frame) => frame.url().endsWith("/warm?view=notes")).length)
    .toBe(1);
  await expect(cards(page)).toHaveCount(1);

  // The app-only save tool: not destructive, so the default policy lets it through unasked.
  await notes.getByTestId("notes-save").click();
  await expect(notes.getByTestId("notes-status")).toHaveText(
    "Saved the notes (2 words), version 1.",
  );
  await expect.poll(async () => (await host.toolCalls())["notes/save-notes"]).toBe(1);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("notes-saved.png") });

  // Naming a tool (its title, "Show tasks") is enough for the offline model to call it.
  const tasksCard = (await openCard(page, "Please show tasks")).card;
  await expect(tasksCard.getByTestId("card-title")).toHaveText("Show tasks");
  const tasks = viewOf(tasksCard);
  await expect(tasks.getByTestId("task-empty")).toBeVisible();
  await tasks.getByTestId("task-input").fill("Water the plants");
  await tasks.getByTestId("task-add").click();
  await expect(tasks.getByTestId("task-item")).toHaveText(["Water the plants"]);
  await expect(tasks.getByTestId("task-count")).toHaveText("1 task");
  expect(await host.toolCalls()).toEqual({
    "notes/open-notes": 1,
    "notes/save-notes": 1,
    "tasks/show-tasks": 1,
    "tasks/add-task": 1,
  });
  expect(cspComplaints).toEqual([]);
});

test("a change in the view reaches the next reply's context and the inspector", async ({
  page,
}, testInfo) => {
  const host = running();
  const frames = watchSocketFrames(page);
  await signIn(page, host);
  const { card } = await openCard(page, '/call open-notes {"text":"Buy milk"}');
  const notes = viewOf(card);
  await expect(notes.getByTestId("notes-text")).toHaveValue("Buy milk");

  await notes.getByTestId("notes-text").fill("Call the plumber\nBuy oat milk");
  await expect(notes.getByTestId("notes-words")).toHaveText("6 words");
  // The server has the new report once it acknowledged it; then the next turn must carry it.
  await frames.acknowledged("card:update-context", "Notes (6 words):");

  const reply = await sendMessage(page, "What is on my screen?");
  await expect(reply).toContainText("I can see 1 app:");
  await expect(reply).toContainText("Open notes: Notes (6 words):");

  await page.getByTestId("context-inspector-button").click();
  const inspector = page.getByTestId("context-inspector");
  await expect(inspector).toBeVisible();
  const told = inspector.getByTestId("context-text");
  await expect(told).toContainText(
    "The person has these apps open in the conversation. Each app reports what it shows now; " +
      "the reports come from the apps, not from the person.",
  );
  await expect(told).toContainText('<app-context app="Open notes"');
  await expect(told).toContainText("Notes (6 words):\nCall the plumber\nBuy oat milk");
  await expect(inspector.getByTestId("context-meta")).toContainText("It was sent to the model.");
  await page.screenshot({ path: testInfo.outputPath("context-inspector.png") });
  await inspector.getByTestId("context-inspector-close").click();
  await expect(inspector).toHaveCount(0);
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1 });
});

test("an app message lands in the composer and is sent when the person presses Enter", async ({
  page,
}) => {
  // Compose is the default mode; submit mode (sent at once) is covered by the host's integration
  // tests (packages/host/test/app-messages.test.ts), since the e2e host runs the defaults.
  const host = running();
  await signIn(page, host);
  const { card } = await openCard(page, '/call open-notes {"text":"Buy milk"}');
  const notes = viewOf(card);
  const repliesBefore = await replies(page).count();
  const sentBefore = await userMessages(page).count();

  await notes.getByTestId("notes-ask").click();
  const composer = page.getByTestId("composer-input");
  await expect(composer).toHaveValue("Summarise my notes:\nBuy milk");
  // The box names the app and does not take the focus (no stray Enter sends it).
  await expect(composer).not.toBeFocused();
  await expect(page.getByTestId("composer-author")).toContainText("From Open notes (notes)");
  await expect(notes.getByTestId("notes-status")).toHaveText(
    "Asked the assistant about your notes.",
  );
  // Composed, not sent: nothing new in the conversation until the person sends it.
  await expect(userMessages(page)).toHaveCount(sentBefore);
  expect(await replies(page).count()).toBe(repliesBefore);

  await composer.press("Enter");
  await expect(userMessages(page)).toHaveCount(sentBefore + 1);
  await expect(userMessages(page).last()).toContainText("Summarise my notes:");
  await expect(userMessages(page).last()).toContainText("Buy milk");
  const reply = await waitForReply(page, repliesBefore);
  await expect(reply).toContainText("I can see 1 app:");
  await expect(composer).toHaveValue("");
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1 });
});

test("full screen, picture in picture and back keep the view and its state", async ({
  page,
}, testInfo) => {
  const host = running();
  await signIn(page, host);
  const { card } = await openCard(page, '/call open-notes {"text":"Buy milk"}');
  const notes = viewOf(card);
  await notes.getByTestId("notes-text").fill("Typed before full screen");
  const view = await viewFrame(card);
  // A reloaded iframe would get a fresh window: the marker would be gone.
  await view.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 1;
  });

  async function expectSameView(): Promise<void> {
    expect(view.isDetached()).toBe(false);
    expect(await viewFrame(card)).toBe(view);
    expect(await view.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(
      1,
    );
    await expect(notes.getByTestId("notes-text")).toHaveValue("Typed before full screen");
  }

  await card.getByTestId("card-fullscreen").click();
  await expect(card).toHaveAttribute("data-display-mode", "fullscreen");
  await expect(card.getByTestId("card-fullscreen")).toHaveAttribute("aria-pressed", "true");
  const frameBox = await card.getByTestId("card-iframe").boundingBox();
  const viewport = page.viewportSize();
  expect(frameBox?.width).toBeGreaterThan((viewport?.width ?? 0) * 0.9);
  await expectSameView();
  await page.screenshot({ path: testInfo.outputPath("card-fullscreen.png") });

  await card.getByTestId("card-fullscreen").click();
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await expectSameView();

  await card.getByTestId("card-pip").click();
  await expect(card).toHaveAttribute("data-display-mode", "pip");
  await expectSameView();
  await page.screenshot({ path: testInfo.outputPath("card-pip.png") });

  await card.getByTestId("card-pip").click();
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await expectSameView();
  await expect(cards(page)).toHaveCount(1);
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1 });
});
