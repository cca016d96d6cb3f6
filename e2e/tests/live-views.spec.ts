// Live views near the viewport, a light stand-in elsewhere: a long conversation keeps at most the
// cap's number of card frames (default 12, `host.liveViews`), opens at its end with the cards in
// view live first, pauses the card farthest from view that is not in use, and brings a paused
// card back through the restore path: its saved input and result, no tool called. The server
// keeps a paused card's last report for the model. No time is asserted.
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { viewOf } from "../support/card-frames";
import { sendMessage, signIn } from "../support/chat-page";
import { freshDataDirectory, startHost, type RunningHost } from "../support/host";
import { savedCardId, savedNoteText, writeNotesConversation } from "../support/saved-notes";
import { watchSocketFrames } from "../support/socket-frames";

let host: RunningHost | null = null;

test.afterEach(async () => {
  await host?.stop();
  host = null;
});

/** The live card number `index` (its frame is in the page). */
function liveCard(page: Page, index: number): Locator {
  return page.locator(`[data-testid="card"][data-instance-id="${savedCardId(index)}"]`);
}

/** The stand-in of the card number `index`. */
function standIn(page: Page, index: number): Locator {
  return page.locator(`[data-testid="card-stand-in"][data-instance-id="${savedCardId(index)}"]`);
}

/** Installed before the page's scripts: records the most card frames ever in the page at once. */
function countFrames(): void {
  if (window.top !== window) return;
  const record = { most: 0, now: 0 };
  (globalThis as unknown as { liveFrames: typeof record }).liveFrames = record;
  new MutationObserver(() => {
    record.now = document.querySelectorAll('iframe[data-testid="card-iframe"]').length;
    record.most = Math.max(record.most, record.now);
  }).observe(document, { subtree: true, childList: true });
}

async function liveFrames(page: Page): Promise<{ most: number; now: number }> {
  return page.evaluate(
    () => (globalThis as unknown as { liveFrames: { most: number; now: number } }).liveFrames,
  );
}

/** Scrolls the message list to `top` (px; `Infinity`: its end) and says where it ended up. */
async function scrollList(page: Page, top: number): Promise<{ top: number; height: number }> {
  return page.getByTestId("message-list").evaluate(
    (list, wanted) => {
      list.scrollTop = wanted === null ? list.scrollHeight : wanted;
      return { top: list.scrollTop, height: list.clientHeight };
    },
    Number.isFinite(top) ? top : null,
  );
}

/** How many stand-ins show in the visible part of the message list. */
async function visibleStandIns(page: Page): Promise<number> {
  return page.getByTestId("message-list").evaluate((list) => {
    const box = list.getBoundingClientRect();
    return Array.from(list.querySelectorAll('[data-testid="card-stand-in"]')).filter((element) => {
      const rect = element.getBoundingClientRect();
      return rect.bottom > box.top && rect.top < box.bottom;
    }).length;
  });
}

async function openSavedConversation(
  page: Page,
  count: number,
  liveViews?: number,
): Promise<RunningHost> {
  const data = freshDataDirectory();
  const conversationId = await writeNotesConversation(join(data, "mcp-chat-host.db"), count);
  const started = await startHost(liveViews === undefined ? { data } : { data, liveViews });
  host = started;
  await page.addInitScript(countFrames);
  await signIn(page, started, `#/c/${encodeURIComponent(conversationId)}`);
  return started;
}

test("a card scrolled away and back shows its saved result with zero tool calls; the live frames never exceed the cap", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const count = 30;
  const running = await openSavedConversation(page, count);

  // Reopened at its end: the last card is live first, the first one was never attached (nor
  // loaded: the snapshot holds only the latest page of messages).
  await expect(liveCard(page, count)).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await expect(liveCard(page, count)).toBeInViewport();
  await expect(page.locator(`[data-instance-id="${savedCardId(1)}"]`)).toHaveCount(0);
  await expect(viewOf(liveCard(page, count)).getByTestId("notes-text")).toHaveValue(
    savedNoteText(count),
  );

  // Up to the top, a screen at a time (the earlier messages load there): the cards in view go
  // live, those far below are paused.
  const earlierLeft = async () => (await page.getByTestId("earlier-messages").count()) > 0;
  let position = await scrollList(page, Infinity);
  for (let step = 0; step < 4 * count && (position.top > 0 || (await earlierLeft())); step += 1) {
    position = await scrollList(page, Math.max(0, position.top - position.height));
    await expect.poll(() => visibleStandIns(page), { timeout: 30_000 }).toBe(0);
  }
  expect(position.top).toBe(0);
  await expect(liveCard(page, 1)).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  await expect(standIn(page, count)).toHaveAttribute("data-state", "paused");
  await expect(standIn(page, count).getByTestId("card-paused-note")).toContainText("Paused at");
  await expect(liveCard(page, count)).toHaveCount(0);

  // And back to the end: the paused card attaches again with its saved input and result.
  await scrollList(page, Infinity);
  await expect(liveCard(page, count)).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  const view = viewOf(liveCard(page, count));
  await expect(view.getByTestId("notes-text")).toHaveValue(savedNoteText(count));
  await expect(view.getByTestId("notes-status")).toHaveText(
    "Your notes are ready. The assistant sees a short summary of them.",
  );
  expect(await running.toolCalls()).toEqual({});
  const frames = await liveFrames(page);
  expect(frames.most).toBeGreaterThan(1);
  expect(frames.most).toBeLessThanOrEqual(12);
});

test("a card in use is never paused, a paused card's report stays in the model's context, and the stand-in says when it was paused", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const count = 8;
  const socketFrames = watchSocketFrames(page);
  const running = await openSavedConversation(page, count, 1);

  await expect(liveCard(page, count)).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  const last = viewOf(liveCard(page, count));
  await last.getByTestId("notes-text").fill("Paused notes keep their report");
  await socketFrames.acknowledged("card:update-context", "Notes (5 words):");
  // The person leaves the card (its frame had the focus).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  // At the top the first card takes the only live place: the last one is paused.
  await scrollList(page, 0);
  await expect(liveCard(page, 1)).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  await expect(standIn(page, count)).toHaveAttribute("data-state", "paused");
  await expect(standIn(page, count).getByTestId("card-stand-in-report")).toContainText(
    "Notes (5 words):",
  );
  // The server still tells the model what the paused card last reported.
  const reply = await sendMessage(page, "What is on my screen?");
  await expect(reply).toContainText("Notes (5 words):");

  // The first card is in use (the person types in it): scrolling away does not pause it, and the
  // paused card in view waits, saying so.
  const first = viewOf(liveCard(page, 1));
  await first.getByTestId("notes-text").fill("Typed while in use");
  await scrollList(page, Infinity);
  await expect(standIn(page, count)).toBeInViewport();
  await expect(standIn(page, count)).toHaveAttribute("data-state", "paused");
  await expect(standIn(page, count).getByTestId("card-paused-note")).toContainText(
    "to save memory while out of view",
  );
  await standIn(page, count).screenshot({ path: testInfo.outputPath("paused-card.png") });
  await expect(liveCard(page, 1)).toHaveAttribute("data-status", "ready");
  await expect(first.getByTestId("notes-text")).toHaveValue("Typed while in use");
  expect((await liveFrames(page)).now).toBe(1);

  // Once the person leaves it, the card in view gets the place back, from its saved result.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(liveCard(page, count)).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  await expect(last.getByTestId("notes-text")).toHaveValue(savedNoteText(count));
  await expect(standIn(page, 1)).toHaveAttribute("data-state", "paused");
  expect(await running.toolCalls()).toEqual({});
  expect((await liveFrames(page)).most).toBe(1);
});
