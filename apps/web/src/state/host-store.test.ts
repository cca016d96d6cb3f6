// @vitest-environment jsdom
import type { ReplyChunk } from "@mcp-chat-host/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { resetStores } from "../test-support/reset-stores";
import {
  cardDescriptor,
  chatMessage,
  conversationSnapshot,
  sessionSnapshot,
} from "../test-support/records";
import { chunkEvent } from "../test-support/reply-chunks";
import { showMessages } from "../test-support/store-state";
import { useHostStore } from "./host-store";
import { composerOf } from "./composer-slice";
import { messageText } from "./messages-slice";

const store = useHostStore.getState;

function chatIds(chatId = "chat"): string[] {
  return store().messagesByChat[chatId]?.order ?? [];
}

/** A text delta of a reply (already placed by its offset, as the socket's listener does). */
function textDelta(messageId: string, delta: string) {
  return chunkEvent({ type: "text-delta", id: "text-1", delta, offset: 0 }, messageId);
}

/** The reply `messageId` gets more text. */
function written(messageId: string, delta: string): void {
  store().replyChunkArrived(textDelta(messageId, delta));
}

function textOf(messageId: string, chatId = "chat"): string {
  const message = store().messagesByChat[chatId]?.byId[messageId];
  return message === undefined ? "" : messageText(message);
}

beforeEach(() => resetStores());

describe("the messages slice", () => {
  it("applies created → chunks → updated into one message", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { status: "streaming" }));
    written("m1", "Hel");
    written("m1", "lo");
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
    written("m2", "par");
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
    written("m2", " reply");
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
    store().replyChunkArrived({ ...textDelta("m1", "no"), conversationId: "conv-2" });
    expect(chatIds()).toEqual(["m1"]);
    expect(textOf("m1")).toBe("");
  });

  it("adopts the conversation of the first message when none is open", () => {
    showMessages(null, []);
    expect(store().messageArrived(chatMessage("m1", { conversationId: "new-conv" }))).toBe(true);
    expect(store().currentConversationId).toBe("new-conv");
  });

  it("ignores a chunk for a message it does not know", () => {
    showMessages("conv-1", []);
    written("ghost", "x");
    expect(store().messagesByChat.chat).toBeUndefined();
  });

  it("starts a new text part after a tool call, so text shows where it was written", () => {
    showMessages("conv-1", []);
    store().messageArrived(chatMessage("m1", { status: "streaming" }));
    written("m1", "Before");
    const started = chunkEvent({
      type: "tool-input-start",
      toolCallId: "t1",
      toolName: "get-time",
      startedAt: 1,
    });
    store().replyChunkArrived(started);
    store().replyChunkArrived(started);
    written("m1", "After");
    expect(store().messagesByChat.chat?.byId.m1?.parts.map((part) => part.type)).toEqual([
      "text",
      "tool",
      "text",
    ]);
  });
});

describe("the page's one store", () => {
  it("moves a tool part on with its chunks and keeps the call's clock beside it", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    const moved = (chunk: ReplyChunk) => store().replyChunkArrived(chunkEvent(chunk));
    expect(
      moved({ type: "tool-input-start", toolCallId: "t1", toolName: "sum", startedAt: 5 }),
    ).toMatchObject({ state: "input-streaming" });
    expect(
      moved({ type: "tool-input-available", toolCallId: "t1", input: { a: 1 } }),
    ).toMatchObject({ state: "input-available", input: { a: 1 } });
    // A chunk for a state the part is already in moves nothing.
    expect(moved({ type: "tool-input-available", toolCallId: "t1", input: { a: 1 } })).toBeNull();
    moved({ type: "tool-output-available", toolCallId: "t1", output: 1, durationMs: 7 });
    expect(store().messagesByChat.chat?.byId.m1?.parts).toEqual([
      {
        type: "tool",
        toolCallId: "t1",
        name: "sum",
        state: "output-available",
        input: { a: 1 },
        output: 1,
      },
    ]);
    expect(store().toolClocks.t1).toEqual({ startedAt: 5, durationMs: 7, progress: null });
    // A snapshot of another conversation forgets the clocks of calls it does not show.
    store().applyConversationSnapshot(conversationSnapshot("conv-2"));
    expect(store().toolClocks).toEqual({});
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
