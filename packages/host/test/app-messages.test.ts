// App messages through a real socket: a card's `ui/message` reaches
// only the chat that owns the card, in that chat's mode; empty text and panes reach no chat.
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import {
  greeterApp,
  openCard,
  receivedOf,
  replyText,
  startHost,
  type TestClient,
  nextChunk,
  type TestHost,
} from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/** One session with three chats sharing the greeter: one per mode, and a pane. */
async function startMessageHost() {
  host = await startHost({
    async session(session) {
      const app = greeterApp();
      mcpChatHost(session.chat({ id: "composer" }), app, { messages: "compose" });
      mcpChatHost(session.chat({ id: "sender" }), app, { messages: "submit" });
      mcpChatHost(session.chat({ id: "quiet" }), app, { messages: "ignore" });
      await session.pane(app, { tool: "greet", arguments: { name: "Pane" } });
    },
  });
  const client = await host.connect();
  const hello = await client.value("session:hello", {});
  return { client, hello };
}

function post(client: TestClient, instanceId: string, ...texts: string[]) {
  return client.value("card:post-message", {
    instanceId,
    role: "user",
    content: texts.map((text) => ({ type: "text", text })),
  });
}

/** The chat-visible events that an app message could cause. */
function messageEffects(client: TestClient) {
  return [...receivedOf(client, "composer:fill"), ...receivedOf(client, "message:created")];
}

describe("app messages", () => {
  it("composes into the owning chat's input box only, with text blocks joined", async () => {
    const { client, hello } = await startMessageHost();
    expect(hello.chats.map((chat) => [chat.id, chat.messages])).toEqual([
      ["composer", "compose"],
      ["sender", "submit"],
      ["quiet", "ignore"],
    ]);
    const card = await openCard(client, "composer", "greet", { name: "Ada" });
    expect(card.chatId).toBe("composer");
    client.received.splice(0);

    const answer = await post(client, card.instanceId, "Compare", "these two");
    expect(answer).toEqual({ action: "compose" });
    // Events of a socket arrive in order: the fill was sent before the acknowledgement.
    expect(receivedOf(client, "composer:fill")).toEqual([
      { chatId: "composer", text: "Compare\nthese two", instanceId: card.instanceId },
    ]);
    // Nothing was sent as a message.
    expect(receivedOf(client, "message:created")).toEqual([]);
  });

  it("submits as the person's next message in the owning chat, which gets a reply", async () => {
    const { client } = await startMessageHost();
    const composerCard = await openCard(client, "composer", "greet", { name: "Ada" });
    const card = await openCard(client, "sender", "greet", { name: "Bo" });
    expect(card.chatId).toBe("sender");
    client.received.splice(0);

    expect(await post(client, card.instanceId, "What do you see?")).toEqual({ action: "submit" });
    const created = await client.next(
      "message:created",
      (payload) => payload.message.role === "user",
    );
    // The submitted message is the first thing the server sends after the acknowledgement.
    expect(created.message).toMatchObject({
      chatId: "sender",
      role: "user",
      parts: [{ type: "text", text: "What do you see?" }],
    });
    const reply = await client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.chatId === "sender",
    );
    expect(reply.message.status).toBe("complete");
    expect(replyText(reply.message).split("\n")[0]).toBe("No apps are open.");
    expect(receivedOf(client, "composer:fill")).toEqual([]);

    // Stored in the sender chat's history only.
    const stored = await host!.server.store.listMessages(card.conversationId!);
    const submitted = stored.filter(
      (message) =>
        message.role === "user" &&
        message.parts.some((part) => part.type === "text" && part.text === "What do you see?"),
    );
    expect(submitted.map((message) => message.chatId)).toEqual(["sender"]);
    expect(composerCard.chatId).toBe("composer");
  });

  it("drops messages of an ignoring chat, empty messages and a pane's messages", async () => {
    const { client, hello } = await startMessageHost();
    const quietCard = await openCard(client, "quiet", "greet", { name: "Cy" });
    const composerCard = await openCard(client, "composer", "greet", { name: "Di" });
    const before = messageEffects(client).length;

    expect(await post(client, quietCard.instanceId, "Hello")).toEqual({
      action: "drop",
      reason: 'The chat "quiet" ignores app messages.',
    });
    expect(await post(client, composerCard.instanceId)).toMatchObject({ action: "drop" });
    expect(await post(client, composerCard.instanceId, "")).toMatchObject({ action: "drop" });
    expect(
      await client.value("card:post-message", {
        instanceId: composerCard.instanceId,
        role: "user",
        content: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
      }),
    ).toMatchObject({ action: "drop" });
    const pane = hello.panes[0]!;
    expect(pane).toMatchObject({ kind: "pane", chatId: null });
    expect(await post(client, pane.instanceId, "From the pane")).toMatchObject({ action: "drop" });
    expect(messageEffects(client)).toHaveLength(before);

    // The composer chat still composes afterwards: the drops were about the messages.
    expect(await post(client, composerCard.instanceId, "Now")).toEqual({ action: "compose" });
    expect(receivedOf(client, "composer:fill")).toEqual([
      { chatId: "composer", text: "Now", instanceId: composerCard.instanceId },
    ]);
  });

  it("sends a card's message only to its own chat when two chats compose", async () => {
    host = await startHost({
      session(session) {
        const app = greeterApp();
        mcpChatHost(session.chat(), app);
        mcpChatHost(session.chat(), app);
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await openCard(client, "chat-1", "greet", { name: "A" });
    const second = await openCard(client, "chat-2", "greet", { name: "B" });

    await post(client, second.instanceId, "from the second");
    await post(client, first.instanceId, "from the first");
    expect(receivedOf(client, "composer:fill")).toEqual([
      { chatId: "chat-2", text: "from the second", instanceId: second.instanceId },
      { chatId: "chat-1", text: "from the first", instanceId: first.instanceId },
    ]);

    // A closed card posts nothing.
    await client.value("card:teardown", { instanceId: first.instanceId, reason: "closed" });
    const closed = await client.request("card:post-message", {
      instanceId: first.instanceId,
      role: "user",
      content: [{ type: "text", text: "late" }],
    });
    expect(closed).toMatchObject({
      ok: false,
      error: { message: "This app is no longer running.", rpcCode: -32600 },
    });
    expect(receivedOf(client, "composer:fill")).toHaveLength(2);
  });

  it("a reply to a submitted message runs like any other turn", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), { messages: "submit" });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "A" });
    await post(client, card.instanceId, '/call greet {"name":"From the app"}');
    const next = await nextChunk(
      client,
      "data-card",
      (chunk) => chunk.card.arguments["name"] === "From the app",
    );
    expect(next.card.chatId).toBe("chat-1");
    const reply = await client.next("message:updated", (payload) =>
      payload.message.parts.some((part) => part.type === "tool" && part.instanceId !== undefined),
    );
    expect(reply.message.status).toBe("complete");
    expect(replyText(reply.message)).toBe("greet returned: Hello, From the app!");
  });
});
