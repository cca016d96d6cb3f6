// A long conversation opens with its latest page of messages; the browser asks for the earlier
// ones a page at a time (`conversation:messages`), only of the person's own conversations.
import { conversationPageMessages, type ChatMessage } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import type { HostStore } from "../src/store/host-store";
import { greeterApp, startHost, type TestHost, headerUsers } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/** How many messages the saved conversation has: two and a half pages. */
const total = conversationPageMessages * 2 + conversationPageMessages / 2;

/** Saves a conversation of `total` messages for Alice; every fourth one opened a card. */
async function savedConversation(store: HostStore): Promise<string> {
  const conversation = await store.createConversation("alice", { title: "Long" });
  for (let index = 1; index <= total; index++) {
    const id = `message-${index}`;
    const opensCard = index % 4 === 0;
    await store.appendMessage({
      id,
      conversationId: conversation.id,
      chatId: "chat-1",
      role: index % 2 === 1 ? "user" : "assistant",
      parts: [
        { type: "text", text: `Message ${index}` },
        ...(opensCard ? [{ type: "card" as const, instanceId: `card-${index}` }] : []),
      ],
    });
    if (opensCard) {
      await store.saveCard({
        instanceId: `card-${index}`,
        conversationId: conversation.id,
        chatId: "chat-1",
        kind: "card",
        source: "greeter",
        tool: "greet",
        arguments: { name: `Ada ${index}` },
        result: null,
        title: "Greeting",
        checked: false,
        messageId: id,
      });
    }
  }
  // A card of no message comes with the first page, whatever its age.
  await store.saveCard({
    instanceId: "loose-card",
    conversationId: conversation.id,
    chatId: "chat-1",
    kind: "card",
    source: "greeter",
    tool: "greet",
    arguments: {},
    result: null,
    title: "Loose",
    checked: false,
    createdAt: 1,
  });
  return conversation.id;
}

function seqsOf(messages: readonly ChatMessage[]): number[] {
  return messages.map((message) => message.seq);
}

describe("a long conversation's pages", () => {
  it("opens with the latest page, and pages back without gap or duplicate", async () => {
    host = await startHost({
      auth: headerUsers,
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const conversationId = await savedConversation(host.server.store);
    const alice = await host.connect({ headers: { "x-test-user": "alice" } });
    const bob = await host.connect({ headers: { "x-test-user": "bob" }, tabId: "tab-b" });
    await bob.value("session:hello", {});

    const hello = await alice.value("session:hello", { conversationId });
    const current = hello.current!;
    expect(seqsOf(current.messages)).toEqual(
      Array.from({ length: conversationPageMessages }, (_, index) => total - 39 + index),
    );
    expect(current.earlier).toBe(true);
    // Only the cards of those messages, and the card of no message.
    const shownIds = new Set(current.messages.map((message) => message.id));
    expect(current.cards.map((card) => card.instanceId)).toContain("loose-card");
    for (const card of current.cards) {
      if (card.instanceId !== "loose-card") expect(shownIds.has(card.messageId!)).toBe(true);
    }
    expect(current.cards).toHaveLength(conversationPageMessages / 4 + 1);
    // Opening it again gives the same page.
    const opened = await alice.value("conversation:open", { conversationId });
    expect(seqsOf(opened.messages)).toEqual(seqsOf(current.messages));
    expect(opened.earlier).toBe(true);

    const seen = [...current.messages];
    const cards = current.cards.map((card) => card.instanceId);
    let earlier = current.earlier;
    for (let pages = 0; earlier && pages < 10; pages++) {
      const page = await alice.value("conversation:messages", {
        conversationId,
        before: seen[0]!.seq,
      });
      expect(page.messages.length).toBeLessThanOrEqual(conversationPageMessages);
      const pageIds = new Set(page.messages.map((message) => message.id));
      for (const card of page.cards) expect(pageIds.has(card.messageId!)).toBe(true);
      cards.push(...page.cards.map((card) => card.instanceId));
      seen.unshift(...page.messages);
      earlier = page.earlier;
    }
    expect(earlier).toBe(false);
    expect(seqsOf(seen)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    expect(new Set(cards).size).toBe(cards.length);
    expect(cards).toHaveLength(total / 4 + 1);

    // A smaller page, when asked for.
    const small = await alice.value("conversation:messages", {
      conversationId,
      before: 10,
      limit: 3,
    });
    expect(seqsOf(small.messages)).toEqual([7, 8, 9]);
    expect(small.earlier).toBe(true);

    // Another person's conversation is refused as opening it is.
    const refused = await bob.request("conversation:messages", { conversationId, before: 50 });
    const openRefused = await bob.request("conversation:open", { conversationId });
    expect(refused).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(refused).toEqual(openRefused);
  });

  it("refuses a malformed request", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    for (const payload of [
      { conversationId: "c", before: -1 },
      { conversationId: "c", before: 1.5 },
      { conversationId: "c", before: 10, limit: 0 },
      { conversationId: "c", before: 10, limit: 201 },
      { before: 10 },
      { conversationId: "c", before: 10, extra: true },
    ]) {
      expect(await client.request("conversation:messages", payload as never)).toMatchObject({
        ok: false,
        error: { code: "bad_request" },
      });
    }
  });
});
