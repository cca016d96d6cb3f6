import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeEachStore } from "../../test/store-kinds";
import { formatIssuePath, parseConversationDocument } from "./conversation-export";
import type { ConversationDocument, HostStore } from "./host-store";
import { StoreError } from "./store-error";
import { legacyReplyParts, upgradedReplyParts } from "../testing/legacy-reply";

function tickingClock(start = 10_000): () => number {
  let time = start;
  return () => ++time;
}

/** Fills a conversation with one of everything an export carries. */
async function seedConversation(store: HostStore, userId: string): Promise<string> {
  const conversation = await store.createConversation(userId, { title: "Trip planning" });
  const question = await store.appendMessage({
    conversationId: conversation.id,
    chatId: "chat-1",
    role: "user",
    parts: [
      { type: "text", text: "show the map" },
      // Resources the person attached, as read when the message was sent.
      {
        type: "resource",
        source: "maps",
        uri: "maps://lyon.md",
        mimeType: "text/markdown",
        text: "# Lyon",
      },
      {
        type: "resource",
        source: "maps",
        uri: "maps://lyon.png",
        name: "Lyon",
        mimeType: "image/png",
        blob: "iVBO",
      },
    ],
  });
  const reply = await store.appendMessage({
    conversationId: conversation.id,
    chatId: "chat-1",
    role: "assistant",
    parts: [
      {
        type: "tool",
        toolCallId: "call-1",
        name: "show-map",
        source: "maps",
        state: "output-available",
        input: { city: "Lyon" },
        output: "Map of Lyon",
        instanceId: "host-map",
      },
      { type: "text", text: "Here is the map." },
    ],
  });
  await store.appendMessage({
    conversationId: conversation.id,
    chatId: "chat-1",
    role: "assistant",
    parts: [{ type: "text", text: "Still typ" }],
    status: "streaming",
  });
  await store.saveCard({
    instanceId: "host-map",
    conversationId: conversation.id,
    chatId: "chat-1",
    kind: "card",
    source: "maps",
    tool: "show-map",
    arguments: { city: "Lyon" },
    result: { content: [{ type: "text", text: "Map of Lyon" }], structuredContent: { zoom: 12 } },
    title: "Map",
    checked: true,
    messageId: reply.id,
  });
  await store.closeCard(conversation.id, "host-map");
  await store.rememberApproval({
    conversationId: conversation.id,
    scope: "card",
    instanceId: "host-map",
    source: "maps",
    tool: "pin-place",
  });
  expect(question.seq).toBe(1);
  return conversation.id;
}

// Export and import through each store.
describeEachStore((kind) => {
  let store: HostStore;

  beforeEach(async () => {
    store = await kind.open(await kind.freshSpec(), { now: tickingClock() });
  });

  afterEach(async () => {
    await store.close();
  });

  it("round-trips a conversation through JSON into a new, imported conversation", async () => {
    const originalId = await seedConversation(store, "ada");
    const exported = await store.exportConversation("ada", originalId);
    expect(exported).toMatchObject({
      format: "mcp-chat-host.conversation",
      version: 2,
      conversation: { title: "Trip planning" },
    });
    expect(JSON.stringify(exported)).not.toContain(originalId);

    const imported = await store.importConversation(
      "bob",
      JSON.parse(JSON.stringify(exported)) as unknown,
    );
    expect(imported).toMatchObject({ userId: "bob", title: "Trip planning", imported: true });
    expect(imported.id).not.toBe(originalId);
    expect(imported.createdAt).toBe(exported!.conversation.createdAt);
    expect((await store.listConversations("bob")).map((item) => item.id)).toEqual([imported.id]);

    const cards = await store.listCards(imported.id);
    expect(cards.map((card) => card.instanceId)).toEqual(["host-map"]);
    expect(cards[0]).toMatchObject({
      checked: true,
      conversationId: imported.id,
      closedAt: expect.any(Number),
    });

    const again = await store.exportConversation("bob", imported.id);
    // Identical except the time of export, the reply that was streaming, which no process is
    // finishing in the imported copy, and the remembered approvals, which an import never brings.
    expect(exported!.approvals).toHaveLength(1);
    const expected: ConversationDocument = {
      ...exported!,
      exportedAt: again!.exportedAt,
      approvals: [],
      messages: exported!.messages.map((message) =>
        message.status === "streaming" ? { ...message, status: "interrupted" } : message,
      ),
    };
    expect(again).toEqual(expected);
    expect(again!.messages.map((message) => message.status)).toEqual([
      "complete",
      "complete",
      "interrupted",
    ]);

    // The original is untouched and still ada's alone.
    expect(await store.getConversation("ada", originalId)).toMatchObject({ imported: false });
    expect(await store.listMessages(originalId)).toHaveLength(3);
    const [person] = await store.listMessages(imported.id);
    expect(person!.parts.map((part) => part.type)).toEqual(["text", "resource", "resource"]);
  });

  it("drops every approval an imported file carries, so the person is asked again", async () => {
    const originalId = await seedConversation(store, "ada");
    const exported = (await store.exportConversation("ada", originalId))!;
    // A crafted file: "allow for this conversation" and "for this card" for a destructive tool.
    const crafted: ConversationDocument = {
      ...exported,
      approvals: [
        ...exported.approvals,
        {
          scope: "conversation",
          instanceId: null,
          source: "maps",
          tool: "delete-all",
          createdAt: 1,
        },
        { scope: "card", instanceId: "host-map", source: "maps", tool: "delete-all", createdAt: 1 },
      ],
    };
    const imported = await store.importConversation("ada", crafted);
    expect(await store.listApprovals(imported.id)).toEqual([]);
    expect(await store.listCards(imported.id)).toHaveLength(1);
    expect(await store.listMessages(imported.id)).toHaveLength(3);
    // The original keeps the answer its own person gave.
    expect((await store.listApprovals(originalId)).map((approval) => approval.tool)).toEqual([
      "pin-place",
    ]);
  });

  it("imports a version 1 file, its tool calls read as one tool part each", async () => {
    const originalId = await seedConversation(store, "ada");
    const exported = (await store.exportConversation("ada", originalId))!;
    // The same conversation as an older mcp-chat-host wrote it (`testing/legacy-reply.ts`).
    const old = {
      ...exported,
      version: 1,
      messages: exported.messages.map((message) =>
        message.role === "assistant" && message.status === "complete"
          ? {
              ...message,
              parts: legacyReplyParts,
            }
          : // Version 1 had no attached resources.
            { ...message, parts: message.parts.filter((part) => part.type !== "resource") },
      ),
    };
    const imported = await store.importConversation("bob", JSON.parse(JSON.stringify(old)));
    const reply = (await store.listMessages(imported.id)).find(
      (message) => message.role === "assistant" && message.status === "complete",
    );
    expect(reply?.parts).toEqual(upgradedReplyParts);
  });

  it("renumbers imported messages by their seq order and accepts the JSON text", async () => {
    const originalId = await seedConversation(store, "ada");
    const exported = (await store.exportConversation("ada", originalId))!;
    const gappy = {
      ...exported,
      messages: [...exported.messages]
        .reverse()
        .map((message) => ({ ...message, seq: message.seq * 10 })),
    };
    const imported = await store.importConversation("ada", JSON.stringify(gappy));
    const messages = await store.listMessages(imported.id);
    expect(messages.map((message) => [message.seq, message.id])).toEqual(
      exported.messages.map((message, index) => [index + 1, message.id]),
    );
    // The next message continues after the imported ones.
    const next = await store.appendMessage({
      conversationId: imported.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "and then?" }],
    });
    expect(next.seq).toBe(exported.messages.length + 1);
  });

  const badDocuments: [string, (document: Record<string, unknown>) => unknown, string][] = [
    ["text that is not JSON", () => "{ not json", ""],
    ["another format", (document) => ({ ...document, format: "chatgpt" }), "format"],
    ["a newer version", (document) => ({ ...document, version: 3 }), "version"],
    [
      "a message with an unknown role",
      (document) => ({
        ...document,
        messages: (document.messages as object[]).map((message, index) =>
          index === 1 ? { ...message, role: "system" } : message,
        ),
      }),
      "messages[1].role",
    ],
    [
      "a part of an unknown type",
      (document) => ({
        ...document,
        messages: [{ ...(document.messages as object[])[0], parts: [{ type: "image" }] }],
      }),
      "messages[0].parts[0].type",
    ],
    [
      "two cards with one instance id",
      (document) => ({
        ...document,
        cards: [...(document.cards as object[]), ...(document.cards as object[])],
      }),
      "cards[1].instanceId",
    ],
    [
      "a card approval without its card",
      (document) => ({
        ...document,
        approvals: [{ ...(document.approvals as object[])[0], instanceId: null }],
      }),
      "approvals[0].instanceId",
    ],
    ["no messages", ({ messages: _messages, ...document }) => document, "messages"],
  ];

  it.each(badDocuments)(
    "rejects %s with the path of the problem and writes nothing",
    async (_name, spoil, path) => {
      const originalId = await seedConversation(store, "ada");
      const exported = (await store.exportConversation("ada", originalId)) as unknown as Record<
        string,
        unknown
      >;
      const rejection = store.importConversation("bob", spoil(structuredClone(exported)));
      await expect(rejection).rejects.toBeInstanceOf(StoreError);
      await expect(rejection).rejects.toMatchObject({
        code: "invalid_import",
        path,
        retryable: false,
      });
      await expect(rejection).rejects.toThrow(/Nothing was imported/);
      expect(await store.listConversations("bob")).toEqual([]);
      expect(await store.listConversations("ada")).toHaveLength(1);
    },
  );
});

describe("conversation documents", () => {
  it("names the place of a problem in its message", () => {
    expect(() =>
      parseConversationDocument({
        format: "mcp-chat-host.conversation",
        version: 1,
        exportedAt: 1,
        conversation: { title: "x", createdAt: 1 },
        messages: [],
        cards: [{ instanceId: "host-1" }],
        approvals: [],
      }),
    ).toThrow(/at "cards\[0\]\.chatId"/);
  });

  it("formats issue paths the way a person reads them", () => {
    expect(formatIssuePath([])).toBe("");
    expect(formatIssuePath(["messages", 2, "parts", 0, "type"])).toBe("messages[2].parts[0].type");
    expect(formatIssuePath(["conversation", "title"])).toBe("conversation.title");
  });
});
