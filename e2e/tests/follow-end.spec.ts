// The chat keeps a growing card's end in view as it keeps a growing reply's, in Chromium: with the
// person at the end, a card whose view grows tall after it opens ends with its bottom in view (a
// new card that opens below the fold is scrolled to, so Chromium paints it); a person who scrolled
// up is not moved when the last card grows. See apps/web/src/components/chat/use-follow-bottom.ts.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { openCard, settledViewOf, viewFrame } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

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

function messageList(page: Page): Locator {
  return page.getByTestId("message-list");
}

/** The list's scroll position and how far its end is below what it shows (px). */
async function listPlace(page: Page): Promise<{ top: number; belowEnd: number }> {
  return messageList(page).evaluate((list) => ({
    top: list.scrollTop,
    belowEnd: list.scrollHeight - list.scrollTop - list.clientHeight,
  }));
}

/** How far the card's bottom is below the bottom of what the list shows (px; ≤ 0: in view). */
async function cardBottomBelowView(page: Page, card: Locator): Promise<number> {
  const list = await messageList(page).boundingBox();
  const box = await card.boundingBox();
  if (list === null || box === null) throw new Error("The list or the card is not shown.");
  return box.y + box.height - (list.y + list.height);
}

async function frameHeight(card: Locator): Promise<number> {
  const box = await card.getByTestId("card-iframe").boundingBox();
  return box?.height ?? 0;
}

/** Makes the card's view 1,500 px taller, and waits until its frame grew to it and settled. */
async function growView(card: Locator): Promise<void> {
  const before = await frameHeight(card);
  await (
    await viewFrame(card)
  ).evaluate(() => {
    const tall = document.createElement("div");
    tall.style.height = "1500px";
    document.body.append(tall);
  });
  await expect.poll(() => frameHeight(card)).toBeGreaterThan(before + 1_000);
  await settledViewOf(card);
}

/** Opens three notes cards: the list is then taller than what it shows. */
async function threeCards(page: Page): Promise<Locator> {
  await openCard(page, '/call open-notes {"text":"First"}');
  await openCard(page, '/call open-notes {"text":"Second"}');
  const { card } = await openCard(page, '/call open-notes {"text":"Third"}');
  await settledViewOf(card);
  return card;
}

test("with the person at the end, a card whose view grows tall after it opens ends with its bottom in view", async ({
  page,
}) => {
  await signIn(page, running());
  const card = await threeCards(page);
  // The card opened small and grew to its view's height below the fold: the list followed it.
  expect((await listPlace(page)).top).toBeGreaterThan(0);
  expect(await cardBottomBelowView(page, card)).toBeLessThanOrEqual(0);

  await growView(card);
  expect((await listPlace(page)).belowEnd).toBeLessThanOrEqual(1);
  expect(await cardBottomBelowView(page, card)).toBeLessThanOrEqual(0);
});

test("a person who scrolled up is not moved when the last card's view grows", async ({ page }) => {
  await signIn(page, running());
  const card = await threeCards(page);
  // The person turns the wheel up over the list, away from its end.
  await messageList(page).hover();
  await page.mouse.wheel(0, -300);
  await expect.poll(async () => (await listPlace(page)).belowEnd).toBeGreaterThan(200);
  // Until the wheel's scroll has come to rest: the same place across two rendering frames.
  await expect
    .poll(() =>
      messageList(page).evaluate(
        (list) =>
          new Promise<boolean>((resolve) => {
            const before = list.scrollTop;
            requestAnimationFrame(() =>
              requestAnimationFrame(() => resolve(list.scrollTop === before)),
            );
          }),
      ),
    )
    .toBe(true);
  const before = await listPlace(page);

  await growView(card);
  const after = await listPlace(page);
  expect(after.top).toBe(before.top);
  expect(after.belowEnd).toBeGreaterThan(before.belowEnd + 1_000);
});
