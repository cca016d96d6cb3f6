// App messages that would act as the person, the server's half: in
// `submit` mode a card's `ui/message` runs a turn as if the person had sent it, so the host bounds
// it: one app message in flight per chat (a second one while the chat is answering is refused,
// saying why), a rate limit per card, and the stored message says which app wrote it. A chat with
// no chat host drops app messages with a warning that says what to call.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { APP_MESSAGE_BURST, APP_MESSAGE_INTERVAL_MS } from "../src/app-messages/app-message-limits";
import { mcpChatHost } from "../src/mcp-chat-host";
import { McpApp } from "../src/sources/mcp-app";
import {
  greeterApp,
  openCard,
  receivedOf,
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

function post(client: TestClient, instanceId: string, text: string) {
  return client.request("card:post-message", {
    instanceId,
    role: "user",
    content: [{ type: "text", text }],
  });
}

/** Resolves when the chat's running turn has ended. */
function turnEnded(client: TestClient, chatId: string) {
  return client.next("turn:state", (payload) => payload.chatId === chatId && !payload.running);
}

/** An app whose `hold` tool waits until the test lets it go, so a turn stays running. */
function holdingApp() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const app = new McpApp({
    name: "holder",
    title: "Holder",
    html: "<!doctype html><p>Holder</p>",
    tools: [
      {
        name: "show",
        title: "Show",
        description: "Shows the holder.",
        handler: () => ({ content: [{ type: "text", text: "Shown." }] }),
      },
      {
        name: "hold",
        description: "Waits until released.",
        view: false,
        inputSchema: { label: z.string().optional() },
        handler: async () => {
          await released;
          return { content: [{ type: "text", text: "Released." }] };
        },
      },
    ],
  });
  return { app, release };
}

describe("a chat without a chat host", () => {
  it("drops an app's message with a warning that says what to call", async () => {
    host = await startHost({
      async session(session) {
        session.chat({ id: "plain" });
        await session.showCard(greeterApp(), { tool: "greet", arguments: { name: "Ada" } });
      },
    });
    const client = await host.connect();
    const hello = await client.value("session:hello", {});
    const card = hello.current!.cards[0]!;
    const reason =
      'An app asked to post a message, but the chat "plain" has no chat host: call mcpChatHost(chat, sources) for this chat to route app messages.';
    expect(await post(client, card.instanceId, "Hello")).toEqual({
      ok: true,
      value: { action: "drop", reason },
    });
    const lines = host.logs.filter((line) => line["msg"] === reason);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, card: card.instanceId, code: "no-host" });
    expect(receivedOf(client, "composer:fill")).toEqual([]);
  });
});

describe("submit mode", () => {
  it("refuses a second app message while the chat is answering, then takes the next", async () => {
    const { app, release } = holdingApp();
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), app, { messages: "submit" });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "show");

    expect(await post(client, card.instanceId, "/call hold {}")).toEqual({
      ok: true,
      value: { action: "submit" },
    });
    const hold = await nextChunk(client, "tool-input-start", (chunk) => chunk.toolName === "hold");
    await nextChunk(
      client,
      "tool-input-available",
      (chunk) => chunk.toolCallId === hold.toolCallId,
    );
    const second = await post(client, card.instanceId, "/call hold {}");
    expect(second).toEqual({
      ok: false,
      error: {
        code: "busy",
        message:
          "The chat is still answering, so the app's message was not sent; the app may send it again once the reply is done.",
        retryable: true,
      },
    });
    const created = receivedOf(client, "message:created").filter(
      (payload) => payload.message.role === "user",
    );
    expect(created).toHaveLength(2); // the person's /call that opened the card, and the first app message

    const ended = turnEnded(client, "chat-1");
    release();
    await ended;
    expect(await post(client, card.instanceId, "Thanks")).toEqual({
      ok: true,
      value: { action: "submit" },
    });
    await turnEnded(client, "chat-1");
  });

  it("limits how often one card may submit, and lets it again after a while", async () => {
    let clock = 1_000_000;
    host = await startHost({
      now: () => clock,
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), { messages: "submit" });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const other = await openCard(client, "chat-1", "greet", { name: "Bo" });

    for (let index = 0; index < APP_MESSAGE_BURST; index += 1) {
      const ended = turnEnded(client, "chat-1");
      expect(await post(client, card.instanceId, `message ${index}`)).toEqual({
        ok: true,
        value: { action: "submit" },
      });
      await ended;
    }
    const limited = await post(client, card.instanceId, "one too many");
    expect(limited).toEqual({
      ok: false,
      error: {
        code: "rate_limited",
        message: `This app sent too many messages in a short time; it may send the next in ${APP_MESSAGE_INTERVAL_MS / 1000} s.`,
        retryable: true,
      },
    });
    const stored = await host.server.store.listMessages(card.conversationId!);
    expect(
      stored.some((message) =>
        message.parts.some((part) => part.type === "text" && part.text === "one too many"),
      ),
    ).toBe(false);

    // Another card has its own budget.
    const otherEnded = turnEnded(client, "chat-1");
    expect(await post(client, other.instanceId, "from the other card")).toMatchObject({ ok: true });
    await otherEnded;

    clock += APP_MESSAGE_INTERVAL_MS;
    const ended = turnEnded(client, "chat-1");
    expect(await post(client, card.instanceId, "after a while")).toEqual({
      ok: true,
      value: { action: "submit" },
    });
    await ended;
  });

  it("stores and sends the submitted message as written by the app", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp(), { messages: "submit" });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const ended = turnEnded(client, "chat-1");
    await post(client, card.instanceId, "What do you see?");
    const created = await client.next(
      "message:created",
      (payload) =>
        payload.message.role === "user" &&
        payload.message.parts[0]?.type === "text" &&
        payload.message.parts[0].text === "What do you see?",
    );
    await ended;
    const fromApp = { instanceId: card.instanceId, source: "greeter", title: card.title };
    expect(created.message.fromApp).toEqual(fromApp);

    // Stored so, and shown so when the conversation is opened again; the person's own are not.
    const reopened = await client.value("conversation:open", {
      conversationId: card.conversationId!,
    });
    const users = reopened.messages.filter((message) => message.role === "user");
    expect(users.map((message) => message.fromApp)).toEqual([undefined, fromApp]);
    const stored = await host.server.store.listMessages(card.conversationId!);
    expect(
      stored.filter((message) => message.role === "user").map((message) => message.fromApp),
    ).toEqual([undefined, fromApp]);
  });
});

/** A second server, whose tool an app of another server must not reach through its message. */
function otherApp() {
  return new McpApp({
    name: "other",
    title: "Other",
    html: "<!doctype html><p>Other</p>",
    tools: [
      {
        name: "wipe",
        description: "Another server's tool.",
        view: false,
        handler: () => ({ content: [{ type: "text", text: "Wiped." }] }),
      },
    ],
  });
}

/** An app with a model-only tool and an app-visible one beside the tool that shows its card. */
function ownApp(calls: string[]) {
  return new McpApp({
    name: "own",
    title: "Own",
    html: "<!doctype html><p>Own</p>",
    tools: [
      {
        name: "show",
        title: "Show",
        description: "Shows the app.",
        handler: () => ({ content: [{ type: "text", text: "Shown." }] }),
      },
      {
        name: "secret",
        description: "Model-only.",
        view: false,
        visibility: ["model"],
        handler: () => {
          calls.push("secret");
          return { content: [{ type: "text", text: "Secret." }] };
        },
      },
      {
        name: "refresh",
        description: "App-visible.",
        view: false,
        visibility: ["app", "model"],
        handler: () => {
          calls.push("refresh");
          return { content: [{ type: "text", text: "Refreshed." }] };
        },
      },
    ],
  });
}

describe("a reply to an app's message checks its tool calls as the app's page calls", () => {
  it("refuses another server's tool and a model-only tool; an app-visible one goes through onAppCall", async () => {
    const calls: string[] = [];
    const asked: string[] = [];
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), [ownApp(calls), otherApp()], {
          messages: "submit",
          onAppCall: (call) => {
            asked.push(call.name);
            return true;
          },
        });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "show");
    const replyOf = async (text: string) => {
      const ended = turnEnded(client, "chat-1");
      expect(await post(client, card.instanceId, text)).toMatchObject({ ok: true });
      await ended;
      const stored = await host!.server.store.listMessages(card.conversationId!);
      return JSON.stringify(stored.at(-1)?.parts);
    };

    const other = await replyOf("/call wipe {}");
    expect(other).toContain('The app can\'t call the tool \\"wipe\\"');
    const secret = await replyOf("/call secret {}");
    expect(secret).toContain('The app can\'t call the tool \\"secret\\"');
    expect(calls).toEqual([]);
    expect(asked).toEqual([]);

    const refresh = await replyOf("/call refresh {}");
    expect(refresh).toContain("Refreshed.");
    expect(calls).toEqual(["refresh"]);
    expect(asked).toEqual(["refresh"]);
  });
});
