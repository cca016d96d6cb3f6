// A view's page travels over the socket once per tab: the tab names the pages it holds in
// `card:attach`, and the server leaves out a page the tab already has (docs/performance.md
// says what it saves). The example apps read their pages from a copy in the test's data folder, so
// the test can change a page the way a server would, and see the next card get the new one.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { cards, openCard, viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { freshDataDirectory, startHost, type RunningHost } from "../support/host";
import { watchSocketFrames, type SocketFrames } from "../support/socket-frames";

const builtViews = fileURLToPath(new URL("../../apps/server/dist/views/", import.meta.url));

/** A copy of the built example pages in the data folder; returns the folder. */
function copyViews(data: string): string {
  const folder = join(data, "views");
  mkdirSync(folder, { recursive: true });
  for (const name of ["notes", "tasks", "data-table"]) {
    copyFileSync(join(builtViews, `${name}.html`), join(folder, `${name}.html`));
  }
  return folder;
}

/** The `card:attach` answers the page received, as raw frames. */
function attachAnswers(frames: SocketFrames): string[] {
  const ids = frames.sent.flatMap((frame) => {
    const match = /^42(\d+)\["card:attach"/.exec(frame);
    return match?.[1] === undefined ? [] : [match[1]];
  });
  return frames.received.filter((frame) => ids.some((id) => frame.startsWith(`43${id}[`)));
}

/**
 * Brings each card into view (a card far from the viewport stays a stand-in until it is near)
 * and waits for it to be ready.
 */
async function allReady(page: Page, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const slot = page.locator(".card-slot").nth(index);
    await slot.scrollIntoViewIfNeeded();
    await expect(cards(page).nth(index)).toHaveAttribute("data-status", "ready");
  }
  await expect(cards(page)).toHaveCount(count);
}

/** How many `card:attach` answers carried a page's HTML. */
function answersWithHtml(frames: SocketFrames): number {
  return attachAnswers(frames).filter((frame) => frame.includes('"html":')).length;
}

let host: RunningHost | null = null;

test.afterEach(async () => {
  await host?.stop();
  host = null;
});

test("each distinct page travels once per tab, also when the cards are restored", async ({
  page,
}) => {
  const data = freshDataDirectory();
  host = await startHost({ data, views: copyViews(data) });
  const frames = watchSocketFrames(page);
  await signIn(page, host);
  await openCard(page, '/call open-notes {"text":"First note."}');
  await openCard(page, '/call open-notes {"text":"Second note."}');
  await openCard(page, '/call open-notes {"text":"Third note."}');
  await expect(viewOf(cards(page).nth(2)).getByTestId("notes-text")).toHaveValue("Third note.");
  expect(attachAnswers(frames)).toHaveLength(3);
  expect(answersWithHtml(frames)).toBe(1);

  // A reload is a new tab state: one page arrives again, for all three restored cards.
  const afterReload = watchSocketFrames(page);
  await page.reload();
  await allReady(page, 3);
  await expect(viewOf(cards(page).nth(1)).getByTestId("notes-text")).toHaveValue("Second note.");
  expect(attachAnswers(afterReload)).toHaveLength(3);
  expect(answersWithHtml(afterReload)).toBe(1);
});

test("the view cache serves a changed view after the server changes it", async ({ page }) => {
  const data = freshDataDirectory();
  const views = copyViews(data);
  host = await startHost({ data, views });
  const frames = watchSocketFrames(page);
  await signIn(page, host);
  const { card: first } = await openCard(page, '/call open-notes {"text":"Before."}');
  await expect(viewOf(first).getByTestId("notes-text")).toHaveValue("Before.");
  await expect(viewOf(first).getByTestId("view-version")).toHaveCount(0);

  // The server changes its page; the next card of the tool gets the new one, in the same tab.
  const notesFile = join(views, "notes.html");
  const changed = readFileSync(notesFile, "utf8").replace(
    "</body>",
    '<p data-testid="view-version">Second version</p></body>',
  );
  expect(changed).toContain("Second version");
  writeFileSync(notesFile, changed);
  const { card: second } = await openCard(page, '/call open-notes {"text":"After."}');
  await expect(viewOf(second).getByTestId("view-version")).toHaveText("Second version");
  await expect(viewOf(second).getByTestId("notes-text")).toHaveValue("After.");
  // The first card's view keeps running the page it loaded.
  await expect(viewOf(first).getByTestId("view-version")).toHaveCount(0);
  expect(answersWithHtml(frames)).toBe(2);

  // Reopened, both cards show the new page, and it travels once.
  const afterReload = watchSocketFrames(page);
  await page.reload();
  await allReady(page, 2);
  for (const index of [0, 1]) {
    await expect(viewOf(cards(page).nth(index)).getByTestId("view-version")).toHaveText(
      "Second version",
    );
  }
  expect(answersWithHtml(afterReload)).toBe(1);
});
