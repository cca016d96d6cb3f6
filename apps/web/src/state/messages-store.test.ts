// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { chatMessage } from "../test-support/records";
import { messageText, useMessagesStore } from "./messages-store";

const store = useMessagesStore.getState;

function chatIds(chatId = "chat"): string[] {
  return store().chats[chatId]?.order ?? [];
}

function textOf(messageId: string, chatId = "chat"): string {
  const message = store().chats[chatId]?.byId[messageId];
  return message === undefined ? "" : messageText(message);
}

beforeEach(() => store().reset());

describe("messages store", () => {
  it("applies created → delta → updated into one message", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m1", delta: "Hel" });
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m1", delta: "lo" });
    expect(textOf("m1")).toBe("Hello");
    expect(store().chats.chat?.byId.m1?.status).toBe("streaming");
    store().applyUpdated(chatMessage("m1", { text: "Hello!", status: "complete" }));
    expect(chatIds()).toEqual(["m1"]);
    expect(textOf("m1")).toBe("Hello!");
    expect(store().chats.chat?.byId.m1?.status).toBe("complete");
  });

  it("never holds a message twice when `message:created` is repeated", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("m1", { role: "user", text: "hi" }));
    store().applyCreated(chatMessage("m1", { role: "user", text: "hi" }));
    expect(chatIds()).toEqual(["m1"]);
  });

  it("replaces everything from a replayed snapshot, without duplicates", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("m1", { seq: 1, role: "user", text: "hi" }));
    store().applyCreated(chatMessage("m2", { seq: 2, status: "streaming" }));
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m2", delta: "par" });
    // The reconnect's snapshot holds the same messages, further along.
    store().replace(
      "conv-1",
      [
        chatMessage("m1", { seq: 1, role: "user", text: "hi" }),
        chatMessage("m2", { seq: 2, text: "partial", status: "streaming" }),
      ],
      ["chat"],
    );
    expect(chatIds()).toEqual(["m1", "m2"]);
    expect(textOf("m2")).toBe("partial");
    expect(store().running.chat).toBe(true);
    // Deltas after the snapshot continue the snapshot's text.
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m2",
      delta: " reply",
    });
    expect(textOf("m2")).toBe("partial reply");
  });

  it("keeps messages in the server's order even when events arrive out of order", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("m3", { seq: 3 }));
    store().applyCreated(chatMessage("m1", { seq: 1 }));
    store().applyCreated(chatMessage("m2", { seq: 2 }));
    expect(chatIds()).toEqual(["m1", "m2", "m3"]);
  });

  it("keeps each chat's messages apart", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("a", { chatId: "left" }));
    store().applyCreated(chatMessage("b", { chatId: "right" }));
    expect(chatIds("left")).toEqual(["a"]);
    expect(chatIds("right")).toEqual(["b"]);
  });

  it("ignores events of another conversation", () => {
    store().replace("conv-1", [], []);
    expect(store().applyCreated(chatMessage("x", { conversationId: "conv-2" }))).toBe(false);
    store().applyCreated(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({ conversationId: "conv-2", chatId: "chat", messageId: "m1", delta: "no" });
    expect(chatIds()).toEqual(["m1"]);
    expect(textOf("m1")).toBe("");
  });

  it("adopts the conversation of the first message when none is open", () => {
    store().replace(null, [], []);
    expect(store().applyCreated(chatMessage("m1", { conversationId: "new-conv" }))).toBe(true);
    expect(store().conversationId).toBe("new-conv");
  });

  it("ignores a delta for a message it does not know", () => {
    store().replace("conv-1", [], []);
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "ghost",
      delta: "x",
    });
    expect(store().chats.chat).toBeUndefined();
  });

  it("starts a new text part after a tool call, so text shows where it was written", () => {
    store().replace("conv-1", [], []);
    store().applyCreated(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      delta: "Before",
    });
    const call = { type: "tool-call", toolCallId: "t1", name: "get-time", arguments: {} } as const;
    store().addPart("chat", "m1", call);
    store().addPart("chat", "m1", call);
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      delta: "After",
    });
    expect(store().chats.chat?.byId.m1?.parts.map((part) => part.type)).toEqual([
      "text",
      "tool-call",
      "text",
    ]);
  });
});
