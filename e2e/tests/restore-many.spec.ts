// A saved conversation with many cards reopens with every view live and no tool called: the
// conversation is written straight into the SQLite file before the host starts, so the only way
// its cards can come back is the restore path (re-read each page, hand it the saved input and
// result). The small version of benchmark 4 (bench/benchmarks/restore.ts); no time is asserted.
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { openStore, type JsonObject } from "@mcp-chat-host/host";
import { cards, viewOf } from "../support/card-frames";
import { signIn, replies, userMessages } from "../support/chat-page";
import { freshDataDirectory, startHost, type RunningHost } from "../support/host";

const CARD_COUNT = 20;
/** The token sign-in's user when none is configured. */
const OPERATOR_ID = "operator";

/** Writes a conversation of Notes cards, as real turns leave them; returns its id. */
async function writeConversation(databaseFile: string): Promise<string> {
  const store = await openStore(`sqlite:${databaseFile}`);
  try {
    await store.ensureUser(OPERATOR_ID);
    const conversation = await store.createConversation(OPERATOR_ID, { title: "Many notes" });
    for (let index = 1; index <= CARD_COUNT; index += 1) {
      const args: JsonObject = { text: `Saved note number ${index}.` };
      await store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: "user",
        parts: [{ type: "text", text: `/call open-notes ${JSON.stringify(args)}` }],
      });
      const reply = await store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: "assistant",
        parts: [
          { type: "tool-call", toolCallId: `call-${index}`, name: "open-notes", arguments: args },
          { type: "card", instanceId: `saved-card-${index}` },
          {
            type: "tool-result",
            toolCallId: `call-${index}`,
            name: "open-notes",
            value: "The notes are open (4 words).",
            isError: false,
          },
          { type: "text", text: "open-notes returned: The notes are open (4 words)." },
        ],
      });
      await store.saveCard({
        instanceId: `saved-card-${index}`,
        conversationId: conversation.id,
        chatId: "chat-1",
        kind: "card",
        source: "notes",
        tool: "open-notes",
        arguments: args,
        result: {
          content: [{ type: "text", text: "The notes are open (4 words)." }],
          structuredContent: { text: args["text"] ?? "", words: 4, saved: false },
        },
        title: "Open notes",
        checked: true,
        messageId: reply.id,
      });
    }
    return conversation.id;
  } finally {
    await store.close();
  }
}

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
  const conversationId = await writeConversation(databaseFile);
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
      page.locator(`[data-testid="card"][data-instance-id="saved-card-${index}"]`),
    );
    await expect(view.getByTestId("notes-text")).toHaveValue(`Saved note number ${index}.`);
    await expect(view.getByTestId("notes-status")).toHaveText(
      "Your notes are ready. The assistant sees a short summary of them.",
    );
  }
  expect(host.toolCalls()).toEqual({});

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
