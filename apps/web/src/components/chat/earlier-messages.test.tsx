// @vitest-environment jsdom
// A long conversation's earlier messages: a page goes before the loaded ones in order, without
// duplicates, its cards join; a failed page says why and offers to try again.
import { type ChatMessage, type ConversationPage, wireError } from "@mcp-chat-host/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { loadEarlierMessages } from "../../socket/earlier-messages";
import { applyConversationSnapshot } from "../../state/apply-snapshot";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import { cardDescriptor, chatMessage, conversationSnapshot } from "../../test-support/records";
import { act0, byTestId, click, render, waitUntil } from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { MessageList } from "./message-list";

const store = useHostStore.getState;

/** Messages numbered `from` to `to`, each with that `seq`. */
function numbered(from: number, to: number): ChatMessage[] {
  return Array.from({ length: to - from + 1 }, (_, index) =>
    chatMessage(`m${from + index}`, { seq: from + index, text: `Message ${from + index}` }),
  );
}

function order(): string[] {
  return store().messagesByChat.chat?.order ?? [];
}

beforeEach(() => resetStores());

describe("earlier messages", () => {
  it("puts a page before the loaded messages, in order and without duplicates", async () => {
    applyConversationSnapshot(conversationSnapshot("conv-1", numbered(5, 8), { earlier: true }));
    expect(store().earlierMessages).toEqual({ more: true, loading: false, error: null });
    const socket = new FakeSocket().respond("conversation:messages", (payload) => {
      const page: ConversationPage =
        payload.before === 5
          ? // The server's page, with a message the list already holds (a race): kept once.
            { messages: [...numbered(2, 4), ...numbered(5, 5)], cards: [], earlier: true }
          : { messages: numbered(1, 1), cards: [cardDescriptor("card-1")], earlier: false };
      return { ok: true, value: page };
    });

    await loadEarlierMessages(socket);
    expect(socket.emitted.map((sent) => sent.payload)).toEqual([
      { conversationId: "conv-1", before: 5 },
    ]);
    expect(order()).toEqual(["m2", "m3", "m4", "m5", "m6", "m7", "m8"]);
    expect(store().earlierMessages.more).toBe(true);

    await loadEarlierMessages(socket);
    expect(order()).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"]);
    expect(store().cards["card-1"]).toBeDefined();
    expect(store().earlierMessages).toEqual({ more: false, loading: false, error: null });
    // Nothing earlier is left: no more requests.
    await loadEarlierMessages(socket);
    expect(socket.emitted).toHaveLength(2);
  });

  it("drops a page a newer snapshot replaced, and an old message arriving before its page", async () => {
    applyConversationSnapshot(conversationSnapshot("conv-1", numbered(5, 8), { earlier: true }));
    let answer: (page: ConversationPage) => void = () => undefined;
    const socket = new FakeSocket().respond(
      "conversation:messages",
      () =>
        new Promise((resolve) => {
          answer = (page) => resolve({ ok: true, value: page });
        }),
    );
    const loading = loadEarlierMessages(socket);
    expect(store().earlierMessages.loading).toBe(true);
    // A reconnect's snapshot arrives meanwhile (the conversation grew).
    applyConversationSnapshot(conversationSnapshot("conv-1", numbered(6, 9), { earlier: true }));
    answer({ messages: numbered(1, 4), cards: [], earlier: false });
    await loading;
    expect(order()).toEqual(["m6", "m7", "m8", "m9"]);
    expect(store().earlierMessages).toEqual({ more: true, loading: false, error: null });

    // An update of a message before the loaded ones waits for its page.
    expect(store().messageArrived(chatMessage("m2", { seq: 2, text: "changed" }))).toBe(true);
    expect(order()).toEqual(["m6", "m7", "m8", "m9"]);
  });

  it("says why a page failed, and tries again on the button", async () => {
    applyConversationSnapshot(conversationSnapshot("conv-1", numbered(5, 6), { earlier: true }));
    let fail = true;
    const socket = new FakeSocket().respond("conversation:messages", () =>
      fail
        ? { ok: false, error: wireError("storage", "The messages could not be loaded.") }
        : { ok: true, value: { messages: numbered(1, 4), cards: [], earlier: false } },
    );
    const rendered = await render(<MessageList chatId="chat" ownsUnassignedCards />, socket);
    try {
      await act0(() => void loadEarlierMessages(socket));
      await waitUntil(
        () => rendered.container.querySelector('[data-testid="earlier-messages-error"]') !== null,
        "the failure shows",
      );
      expect(byTestId(rendered.container, "earlier-messages-error").textContent).toContain(
        "Earlier messages could not be loaded: The messages could not be loaded.",
      );
      expect(order()).toEqual(["m5", "m6"]);

      fail = false;
      const retry = byTestId(rendered.container, "earlier-messages-retry");
      expect(retry.textContent).toBe("Try again");
      await click(retry);
      await waitUntil(() => order().length === 6, "the page is in");
      expect(order()).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
      // Everything is loaded: the line at the top is gone.
      expect(rendered.container.querySelector('[data-testid="earlier-messages"]')).toBeNull();
      expect(rendered.container.querySelectorAll('[data-testid="message"]')).toHaveLength(6);
    } finally {
      await rendered.unmount();
    }
  });
});
