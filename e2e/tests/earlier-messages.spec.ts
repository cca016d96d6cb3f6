// A long saved conversation opens at its end with only its latest page of messages; scrolling to
// the top loads the earlier ones a page at a time without moving what the person looks at, and
// the conversation's first card, once scrolled to, comes back live with no tool called. The
// conversation is written straight into the SQLite file before the host starts (saved-notes.ts).
import { join } from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { viewOf } from "../support/card-frames";
import { signIn, replies, userMessages } from "../support/chat-page";
import { freshDataDirectory, startHost, type RunningHost } from "../support/host";
import { savedCardId, savedNoteText, writeNotesConversation } from "../support/saved-notes";

/** How many messages a snapshot carries (the protocol's `conversationPageMessages`). */
const conversationPageMessages = 40;
/** Three pages of messages (a card is two messages: the person's and the reply with the card). */
const CARD_COUNT = (conversationPageMessages * 3) / 2;
let host: RunningHost | null = null;

test.afterEach(async () => {
  await host?.stop();
  host = null;
});

/** The first message shown and where its top is from the list's top (px). */
function firstMessagePlace(list: Locator): Promise<{ id: string; top: number }> {
  return list.evaluate((element) => {
    const first = element.querySelector("[data-message-id]");
    if (first === null) throw new Error("The list shows no message.");
    return {
      id: first.getAttribute("data-message-id") ?? "",
      top: first.getBoundingClientRect().top - element.getBoundingClientRect().top,
    };
  });
}

/** Where a message's top is from the list's top (px). */
function placeOf(list: Locator, messageId: string): Promise<number> {
  return list.evaluate((element, id) => {
    const message = element.querySelector(`[data-message-id="${id}"]`);
    if (message === null) throw new Error(`The list does not show message ${id}.`);
    return message.getBoundingClientRect().top - element.getBoundingClientRect().top;
  }, messageId);
}

test(`a conversation of ${CARD_COUNT * 2} messages opens at its end and loads the earlier ones on scrolling up`, async ({
  page,
}) => {
  test.setTimeout(180_000);
  const data = freshDataDirectory();
  const conversationId = await writeNotesConversation(join(data, "mcp-chat-host.db"), CARD_COUNT);
  host = await startHost({ data });

  await signIn(page, host, `#/c/${encodeURIComponent(conversationId)}`);
  const list = page.getByTestId("message-list");
  // Only the latest page: the person's messages from the first one it holds to the last.
  const perPage = conversationPageMessages / 2;
  await expect(userMessages(page)).toHaveCount(perPage);
  await expect(replies(page)).toHaveCount(perPage);
  await expect(userMessages(page).first()).toContainText(savedNoteText(CARD_COUNT - perPage + 1));
  await expect(userMessages(page).last()).toContainText(savedNoteText(CARD_COUNT));
  // At its end.
  await expect
    .poll(() =>
      list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
    )
    .toBeLessThan(80);

  // Scrolling to the top loads the page before (one page: the top is far again once it is in),
  // twice, and the message that was first stays where it was on screen each time.
  for (const shown of [perPage * 2, perPage * 3]) {
    await list.evaluate((element) => {
      element.scrollTop = 0;
    });
    const before = await firstMessagePlace(list);
    await expect(userMessages(page)).toHaveCount(shown);
    const after = await placeOf(list, before.id);
    // Within a line of text (a card near the view may settle by a few pixels); without the
    // correction it would be a whole page (thousands of pixels).
    expect(Math.abs(after - before.top)).toBeLessThanOrEqual(16);
    expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  }
  await expect(userMessages(page).first()).toContainText(savedNoteText(1));
  // Nothing earlier is left: no line at the top any more.
  await expect(page.getByTestId("earlier-messages")).toHaveCount(0);

  // The conversation's first card, scrolled to, is live with its saved note and no tool called.
  // Until it comes near the visible part of the list it is a light stand-in.
  await page
    .locator(`[data-instance-id="${savedCardId(1)}"]`)
    .evaluate((element) => element.scrollIntoView({ block: "center" }));
  const first = page.locator(`[data-testid="card"][data-instance-id="${savedCardId(1)}"]`);
  await expect(first).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await expect(viewOf(first).getByTestId("notes-text")).toHaveValue(savedNoteText(1));
  expect(await host.toolCalls()).toEqual({});
});
