// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { resetStores } from "../test-support/reset-stores";
import {
  cardDescriptor,
  chatMessage,
  conversationSnapshot,
  sessionSnapshot,
} from "../test-support/records";
import { showMessages } from "../test-support/store-state";
import { useHostStore } from "./host-store";
import { composerOf } from "./composer-slice";
import { messageText } from "./messages-slice";
import { toolRowOf } from "./tools-slice";

const store = useHostStore.getState;

function chatIds(chatId = "chat"): string[] {
  return store().messagesByChat[chatId]?.order ?? [];
}

function textOf(messageId: string, chatId = "chat"): string {
  const message = store().messagesByChat[chatId]?.byId[messageId];
  return message === undefined ? "" : messageText(message);
}

beforeEach(() => resetStores());

describe("the messages slice", () => {
  it("applies created → delta → updated into one message", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m1", delta: "Hel" });
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m1", delta: "lo" });
    expect(textOf("m1")).toBe("Hello");
    expect(store().messagesByChat.chat?.byId.m1?.status).toBe("streaming");
    store().messageArrived(chatMessage("m1", { text: "Hello!", status: "complete" }));
    expect(chatIds()).toEqual(["m1"]);
    expect(textOf("m1")).toBe("Hello!");
    expect(store().messagesByChat.chat?.byId.m1?.status).toBe("complete");
  });

  it("never holds a message twice when `message:created` is repeated", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { role: "user", text: "hi" }));
    store().messageArrived(chatMessage("m1", { role: "user", text: "hi" }));
    expect(chatIds()).toEqual(["m1"]);
  });

  it("replaces everything from a replayed snapshot, without duplicates", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { seq: 1, role: "user", text: "hi" }));
    store().messageArrived(chatMessage("m2", { seq: 2, status: "streaming" }));
    store().applyDelta({ conversationId: "conv-1", chatId: "chat", messageId: "m2", delta: "par" });
    // The reconnect's snapshot holds the same messages, further along.
    showMessages(
      "conv-1",
      [
        chatMessage("m1", { seq: 1, role: "user", text: "hi" }),
        chatMessage("m2", { seq: 2, text: "partial", status: "streaming" }),
      ],
      ["chat"],
    );
    expect(chatIds()).toEqual(["m1", "m2"]);
    expect(textOf("m2")).toBe("partial");
    expect(store().runningChats.chat).toBe(true);
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
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m3", { seq: 3 }));
    store().messageArrived(chatMessage("m1", { seq: 1 }));
    store().messageArrived(chatMessage("m2", { seq: 2 }));
    expect(chatIds()).toEqual(["m1", "m2", "m3"]);
  });

  it("keeps each chat's messages apart", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("a", { chatId: "left" }));
    store().messageArrived(chatMessage("b", { chatId: "right" }));
    expect(chatIds("left")).toEqual(["a"]);
    expect(chatIds("right")).toEqual(["b"]);
  });

  it("ignores events of another conversation", () => {
    showMessages("conv-1", []);
    expect(store().messageArrived(chatMessage("x", { conversationId: "conv-2" }))).toBe(false);
    store().messageArrived(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({ conversationId: "conv-2", chatId: "chat", messageId: "m1", delta: "no" });
    expect(chatIds()).toEqual(["m1"]);
    expect(textOf("m1")).toBe("");
  });

  it("adopts the conversation of the first message when none is open", () => {
    showMessages(null, []);
    expect(store().messageArrived(chatMessage("m1", { conversationId: "new-conv" }))).toBe(true);
    expect(store().currentConversationId).toBe("new-conv");
  });

  it("ignores a delta for a message it does not know", () => {
    showMessages("conv-1", []);
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "ghost",
      delta: "x",
    });
    expect(store().messagesByChat.chat).toBeUndefined();
  });

  it("starts a new text part after a tool call, so text shows where it was written", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { status: "streaming" }));
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      delta: "Before",
    });
    const started = {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t1",
      name: "get-time",
      arguments: {},
      startedAt: 1,
    };
    store().toolStarted(started);
    store().toolStarted(started);
    store().applyDelta({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      delta: "After",
    });
    expect(store().messagesByChat.chat?.byId.m1?.parts.map((part) => part.type)).toEqual([
      "text",
      "tool-call",
      "text",
    ]);
  });
});

describe("the page's one store", () => {
  it("derives a tool row from its message's parts and the call's live activity", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    store().toolStarted({
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t1",
      name: "sum",
      arguments: { a: 1 },
      startedAt: 5,
    });
    const rowNow = () => {
      const message = store().messagesByChat.chat?.byId.m1;
      return message === undefined ? undefined : toolRowOf(message, "t1", store().toolActivity.t1);
    };
    expect(rowNow()).toMatchObject({ name: "sum", status: "running", startedAt: 5 });
    // The stored reply carries the result; a call left running in a finished reply is unfinished.
    store().messageArrived(
      chatMessage("m1", {
        parts: [
          { type: "tool-call", toolCallId: "t1", name: "sum", arguments: { a: 1 } },
          { type: "tool-result", toolCallId: "t1", name: "sum", isError: false, value: 1 },
        ],
      }),
    );
    expect(rowNow()).toMatchObject({ status: "done", value: 1, arguments: { a: 1 } });
    const unfinished = chatMessage("m2", {
      status: "stopped",
      parts: [{ type: "tool-call", toolCallId: "t2", name: "sum", arguments: {} }],
    });
    expect(toolRowOf(unfinished, "t2")?.status).toBe("unfinished");
  });

  it("keeps the session's panes when another conversation opens, and drops its cards", () => {
    store().applySessionSnapshot(
      sessionSnapshot({
        panes: [cardDescriptor("pane-1", { kind: "pane", conversationId: null, chatId: null })],
        current: conversationSnapshot("conv-1", [], { cards: [cardDescriptor("card-1")] }),
      }),
    );
    expect(Object.keys(store().cards).sort()).toEqual(["card-1", "pane-1"]);
    expect(store().currentConversationId).toBe("conv-1");
    store().applyConversationSnapshot(conversationSnapshot("conv-2"));
    expect(Object.keys(store().cards)).toEqual(["pane-1"]);
    expect(store().currentConversationId).toBe("conv-2");
  });

  it("keeps each chat's box as one entry, and an untouched box is the same empty one", () => {
    expect(composerOf(store(), "chat")).toBe(composerOf(store(), "other"));
    store().setComposerText("chat", "hello");
    store().patchComposer("chat", { sending: true });
    expect(composerOf(store(), "chat")).toMatchObject({ text: "hello", sending: true });
    expect(composerOf(store(), "other").text).toBe("");
  });

  it("goes back to its initial state in one step", () => {
    store().setComposerText("chat", "hello");
    store().addNotice("info", "Hi.");
    resetStores();
    expect(store().composers).toEqual({});
    expect(store().notices).toEqual([]);
  });
});
