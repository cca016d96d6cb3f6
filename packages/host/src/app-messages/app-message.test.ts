import { describe, expect, it } from "vitest";
import { appMessageText, routeAppMessage, type AppMessageCard } from "./app-message";
import { cardChatKey } from "../session/card-chat-key";

const compare = {
  role: "user",
  content: [
    { type: "text", text: "Compare" },
    { type: "text", text: "these two" },
  ],
};

function card(overrides: Partial<AppMessageCard> = {}): AppMessageCard {
  return { instanceId: "host-1", kind: "card", owner: "chat-1", disposed: false, ...overrides };
}

describe("appMessageText", () => {
  it("joins text blocks with a newline", () => {
    expect(appMessageText(compare)).toBe("Compare\nthese two");
  });

  it("adds the JSON of structured content", () => {
    expect(
      appMessageText({ content: [{ type: "text", text: "Pick" }], structuredContent: { id: 7 } }),
    ).toBe('Pick\n{"id":7}');
  });

  it("gives null for an empty message", () => {
    expect(appMessageText({ content: [] })).toBeNull();
    expect(appMessageText({ content: [{ type: "image", data: "x" }] })).toBeNull();
    expect(appMessageText(null)).toBeNull();
  });
});

describe("cardChatKey", () => {
  it("uses the saved owner when it is a string", () => {
    expect(cardChatKey("support", ["chat-1", "support"])).toBe("support");
    expect(cardChatKey("gone", ["chat-1"])).toBe("gone");
  });

  it("gives a card without owner to the only chat, or to none", () => {
    expect(cardChatKey(null, ["chat-1"])).toBe("chat-1");
    expect(cardChatKey(null, ["chat-1", "chat-2"])).toBeNull();
    expect(cardChatKey(null, [])).toBeNull();
  });
});

describe("routeAppMessage", () => {
  it("composes into the owning chat's input box", () => {
    expect(
      routeAppMessage({ mode: "compose", card: card(), chats: ["chat-1"], params: compare }),
    ).toEqual({
      action: "compose",
      chatKey: "chat-1",
      text: "Compare\nthese two",
    });
  });

  it("submits as the person's next message", () => {
    expect(
      routeAppMessage({ mode: "submit", card: card(), chats: ["chat-1"], params: compare }),
    ).toEqual({
      action: "submit",
      chatKey: "chat-1",
      text: "Compare\nthese two",
    });
  });

  it("drops everything in ignore mode", () => {
    expect(
      routeAppMessage({ mode: "ignore", card: card(), chats: ["chat-1"], params: compare }),
    ).toMatchObject({
      action: "drop",
      code: "ignored",
    });
  });

  it("goes only to the owner of two chats, in that chat's mode", () => {
    const modes: Record<string, "compose" | "submit"> = { "chat-1": "compose", "chat-2": "submit" };
    const chats = ["chat-1", "chat-2"];
    const mode = (chatKey: string) => modes[chatKey] ?? "ignore";
    expect(
      routeAppMessage({ mode, card: card({ owner: "chat-2" }), chats, params: compare }),
    ).toEqual({
      action: "submit",
      chatKey: "chat-2",
      text: "Compare\nthese two",
    });
    expect(
      routeAppMessage({ mode, card: card({ owner: "chat-1" }), chats, params: compare }),
    ).toMatchObject({
      action: "compose",
      chatKey: "chat-1",
    });
  });

  it("gives a card built by hand to the only chat, and drops it when there are two", () => {
    expect(
      routeAppMessage({
        mode: "compose",
        card: card({ owner: null }),
        chats: ["chat-1"],
        params: compare,
      }),
    ).toMatchObject({ action: "compose", chatKey: "chat-1" });
    expect(
      routeAppMessage({
        mode: "compose",
        card: card({ owner: null }),
        chats: ["chat-1", "chat-2"],
        params: compare,
      }),
    ).toMatchObject({ action: "drop", code: "no-chat" });
  });

  it("drops a card whose saved owner is no chat of this session", () => {
    expect(
      routeAppMessage({
        mode: "compose",
        card: card({ owner: "support" }),
        chats: ["chat-1"],
        params: compare,
      }),
    ).toMatchObject({ action: "drop", code: "no-chat" });
  });

  it("drops messages from panes, closed cards and earlier page loads", () => {
    expect(
      routeAppMessage({
        mode: "compose",
        card: card({ kind: "pane", owner: null }),
        chats: ["chat-1"],
        params: compare,
      }),
    ).toMatchObject({ action: "drop", code: "pane" });
    expect(
      routeAppMessage({
        mode: "compose",
        card: card({ disposed: true }),
        chats: ["chat-1"],
        params: compare,
      }),
    ).toMatchObject({ action: "drop", code: "closed" });
    expect(
      routeAppMessage({
        mode: "compose",
        card: card(),
        chats: ["chat-1"],
        params: compare,
        fromCurrentPage: false,
      }),
    ).toMatchObject({ action: "drop", code: "stale-page" });
  });

  it("drops a message to a chat without a chat host, saying what to call", () => {
    expect(
      routeAppMessage({ mode: () => null, card: card(), chats: ["chat-1"], params: compare }),
    ).toEqual({
      action: "drop",
      code: "no-host",
      reason:
        'An app asked to post a message, but the chat "chat-1" has no chat host: call mcpChatHost(chat, sources) for this chat to route app messages.',
    });
  });

  it("drops an empty message", () => {
    expect(
      routeAppMessage({ mode: "submit", card: card(), chats: ["chat-1"], params: { content: [] } }),
    ).toMatchObject({ action: "drop", code: "empty", reason: "The message has no text." });
  });
});
