// A saved conversation with many cards reopens with every view live and no tool called: the
// conversation is written straight into the SQLite file before the host starts, so the only way
// its cards can come back is the restore path (re-read each page, hand it the saved input and
// result). The small version of benchmark 4 (bench/benchmarks/restore.ts); no time is asserted.
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { openStore } from "@mcp-chat-host/host";
import { cards, viewOf } from "../support/card-frames";
import { signIn, replies, userMessages } from "../support/chat-page";
import { freshDataDirectory, startHost, type RunningHost } from "../support/host";
import { savedCardId, writeNotesConversation } from "../support/saved-notes";

const CARD_COUNT = 20;
let host: RunningHost | null = null;

test.afterEach(async () => {
  await host?.stop();
  host = null;
});

test(`a saved conversation of ${CARD_COUNT} cards reopens with every view initialised and no tool called`, async ({
  page,
}) => {
  test.setTimeout(180_000);
  const data = freshDataDirectory();
  const databaseFile = join(data, "mcp-chat-host.db");
  const conversationId = await writeNotesConversation(databaseFile, CARD_COUNT);
  // Every card live at once: this spec is about the restore path at scale; the cap on live views
  // (default 12) and the stand-ins are live-views.spec.ts's.
  host = await startHost({ data, liveViews: CARD_COUNT });

  await signIn(page, host, `#/c/${encodeURIComponent(conversationId)}`);
  await expect(userMessages(page)).toHaveCount(CARD_COUNT);
  await expect(replies(page)).toHaveCount(CARD_COUNT);
  // A card attaches when it comes near the visible part of the list: go through the whole list
  // from its end (where it opens) to the top, a screen at a time, waiting at each for the cards in
  // view to be live. Within the cap, none is paused on the way.
  const list = page.getByTestId("message-list");
  for (let step = 0; step < 4 * CARD_COUNT; step += 1) {
    const top = await list.evaluate((element) => {
      element.scrollTop = Math.max(0, element.scrollTop - element.clientHeight);
      return element.scrollTop;
    });
    await expect
      .poll(() =>
        list.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return Array.from(element.querySelectorAll('[data-testid="card-stand-in"]')).filter(
            (standIn) => {
              const rect = standIn.getBoundingClientRect();
              return rect.bottom > box.top && rect.top < box.bottom;
            },
          ).length;
        }),
      )
      .toBe(0);
    if (top === 0) break;
  }
  await expect(cards(page)).toHaveCount(CARD_COUNT);
  // `ready` is what the card shows once its view said `initialized`.
  await expect(page.locator('[data-testid="card"][data-status="ready"]')).toHaveCount(CARD_COUNT, {
    timeout: 120_000,
  });
  // The saved input and result reached the views: the first and the last show their own text.
  for (const index of [1, CARD_COUNT]) {
    const view = viewOf(
      page.locator(`[data-testid="card"][data-instance-id="${savedCardId(index)}"]`),
    );
    await expect(view.getByTestId("notes-text")).toHaveValue(`Saved note number ${index}.`);
    await expect(view.getByTestId("notes-status")).toHaveText(
      "Your notes are ready. The assistant sees a short summary of them.",
    );
  }
  expect(await host.toolCalls()).toEqual({});

  // Reopening changed nothing that was saved: no message added, no card closed.
  await host.stop();
  host = null;
  const store = await openStore(`sqlite:${databaseFile}`);
  try {
    expect(await store.listMessages(conversationId)).toHaveLength(CARD_COUNT * 2);
    const saved = await store.listCards(conversationId);
    expect(saved).toHaveLength(CARD_COUNT);
    expect(saved.filter((card) => card.closedAt !== undefined)).toEqual([]);
  } finally {
    await store.close();
  }
});
