// Saved conversations reopen with their cards live and without calling a tool: after a page
// reload, and after the server restarts on the same SQLite file. The restarted process counts
// every tool call it receives from its first moment, so "no tool called" is the server's word.
import { expect, test } from "@playwright/test";
import { cards, openCard, scrolledToViewOf, settledViewOf, viewOf } from "../support/card-frames";
import {
  conversationHash,
  expectChatReady,
  replies,
  signIn,
  userMessages,
} from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

const openingCalls = {
  "notes/open-notes": 1,
  "notes/save-notes": 1,
  "data-table/show-table": 1,
};

test("a reload and a server restart bring the conversation back with live cards and no tool call", async ({
  page,
}, testInfo) => {
  const first = await startHost();
  hosts.push(first);
  await signIn(page, first);

  const notesCard = (await openCard(page, '/call open-notes {"text":"Buy milk\\nCall Ann"}')).card;
  const notes = viewOf(notesCard);
  await expect(notes.getByTestId("notes-text")).toHaveValue("Buy milk\nCall Ann");
  await (await settledViewOf(notesCard)).getByTestId("notes-save").click();
  await expect(notes.getByTestId("notes-status")).toHaveText(
    "Saved the notes (4 words), version 1.",
  );
  const tableCard = (await openCard(page, '/call show-table {"year":2023}')).card;
  await expect(viewOf(tableCard).getByTestId("table-title")).toHaveText("Sample sales, 2023");
  const hash = await conversationHash(page);
  expect(await first.toolCalls()).toEqual(openingCalls);

  /** What the conversation must show each time it comes back. */
  async function expectConversationBack(): Promise<void> {
    await expectChatReady(page);
    expect(new URL(page.url()).hash).toBe(hash);
    await expect(userMessages(page)).toHaveCount(2);
    await expect(replies(page)).toHaveCount(2);
    await expect(cards(page)).toHaveCount(2);
    const [restoredNotes, restoredTable] = [cards(page).nth(0), cards(page).nth(1)];
    await expect(restoredNotes).toHaveAttribute("data-status", "ready");
    await expect(restoredTable).toHaveAttribute("data-status", "ready");
    // Sent their saved input and result, so what is done in them now is answered.
    await expect(restoredNotes).toHaveAttribute("data-card-state", "live");
    await expect(restoredTable).toHaveAttribute("data-card-state", "live");
    await expect(restoredNotes.getByTestId("card-title")).toHaveText("Open notes");
    // The saved input and result are replayed into the new views.
    await expect(viewOf(restoredNotes).getByTestId("notes-text")).toHaveValue("Buy milk\nCall Ann");
    await expect(viewOf(restoredNotes).getByTestId("notes-status")).toHaveText(
      "Your notes are ready. The assistant sees a short summary of them.",
    );
    const table = viewOf(restoredTable);
    await expect(table.getByTestId("table-title")).toHaveText("Sample sales, 2023");
    await expect(table.getByTestId("table").locator("tbody tr")).toHaveCount(24);
  }

  await page.reload();
  await expectConversationBack();
  expect(await first.toolCalls()).toEqual(openingCalls);

  await first.stop();
  hosts.splice(hosts.indexOf(first), 1);
  const second = await startHost({ data: first.data, port: Number(new URL(first.origin).port) });
  hosts.push(second);
  expect(second.origin).toBe(first.origin);

  await page.reload();
  await expectConversationBack();
  expect(await second.toolCalls()).toEqual({});
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("restored-after-restart.png") });
  // Live, not a picture: the restored view still works, through the new server...
  // Once no card frame moves any more: a click aimed while the table's frame still grows can land
  // outside the view.
  // A person scrolls up to the first card before pressing its button, and the click waits until
  // no frame moves.
  await (await scrolledToViewOf(cards(page).nth(0))).getByTestId("notes-save").click();
  await expect(viewOf(cards(page).nth(0)).getByTestId("notes-status")).toHaveText(
    /^Saved the notes \(4 words\), version \d+\.$/,
  );
  // ...and the only call the new server ever received is the one the person just made.
  expect(await second.toolCalls()).toEqual({ "notes/save-notes": 1 });
});
