// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReplyChunk } from "@mcp-chat-host/protocol";
import { useHostStore } from "../state/host-store";
import { messageText } from "../state/messages-slice";

import { resetStores } from "../test-support/reset-stores";

import { showMessages } from "../test-support/store-state";
import { FakeSocket } from "../test-support/fake-socket";
import {
  approvalRequest,
  cardDescriptor,
  chatMessage,
  conversationSummary,
} from "../test-support/records";
import { chunkEvent, sampleReply, sampleReplyParts } from "../test-support/reply-chunks";
import { bindServerEvents } from "./bind-server-events";
import { onFreshSnapshotWanted } from "./delta-order";

let socket: FakeSocket;
let unbind: () => void;

beforeEach(() => {
  resetStores();
  window.history.replaceState(null, "", "/");
  socket = new FakeSocket();
  unbind = bindServerEvents(socket);
});
afterEach(() => unbind());

describe("server events", () => {
  it("makes the conversation of the first message the open one, in the hash too", () => {
    socket.serverEmit("message:created", {
      message: chatMessage("m1", { conversationId: "fresh", role: "user", text: "hi" }),
    });
    expect(useHostStore.getState().currentConversationId).toBe("fresh");
    expect(window.location.hash).toBe("#/c/fresh");
  });

  it("applies a reply's chunks in order: text, a call with its card, a refused call", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    for (const chunk of sampleReply) socket.serverEmit("message:chunk", chunkEvent(chunk));
    const state = useHostStore.getState();
    expect(state.messagesByChat.chat?.byId.m1?.parts).toEqual(sampleReplyParts);
    // The card is the call's child, registered with what its call said.
    expect(state.cards["host-1"]?.result).toEqual({ content: [{ type: "text", text: "opened" }] });
    expect(state.cards["host-1"]?.cancelled).toBeNull();
    // The clock of a call is what the tab heard while it ran.
    expect(state.toolClocks.c1).toEqual({
      startedAt: 1_000,
      durationMs: 250,
      progress: { progress: 1, total: 2, message: "Half" },
    });
  });

  it("joins a reply mid-way from a snapshot and applies what follows, nothing twice", () => {
    const whole = sampleReply.length;
    for (let read = 0; read <= whole; read++) {
      // The snapshot holds the first `read` chunks; the tab then hears some of them again.
      resetStores();
      const reader = new FakeSocket();
      const stop = bindServerEvents(reader);
      showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
      for (const chunk of sampleReply.slice(0, read)) {
        reader.serverEmit("message:chunk", chunkEvent(chunk));
      }
      const snapshot = useHostStore.getState();
      showMessages("conv-1", [snapshot.messagesByChat.chat!.byId.m1!]);
      useHostStore.setState({ cards: snapshot.cards });
      for (const chunk of sampleReply.slice(Math.max(0, read - 4))) {
        reader.serverEmit("message:chunk", chunkEvent(chunk));
      }
      expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts).toEqual(sampleReplyParts);
      expect(Object.keys(useHostStore.getState().cards)).toEqual(["host-1"]);
      stop();
    }
  });

  it("asks for a fresh snapshot when text before a delta was missed", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming", text: "Hel" })]);
    let wanted = 0;
    const stop = onFreshSnapshotWanted(() => wanted++);
    socket.serverEmit(
      "message:chunk",
      chunkEvent({ type: "text-delta", id: "t", delta: "world", offset: 6 }),
    );
    stop();
    expect(wanted).toBe(1);
    expect(messageText(useHostStore.getState().messagesByChat.chat!.byId.m1!)).toBe("Hel");
  });

  it("drops a withdrawn card from its call and the page, keeping the call's refused row", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    const chunks: ReplyChunk[] = [
      { type: "tool-input-start", toolCallId: "c1", toolName: "open-notes", startedAt: 1 },
      { type: "data-card", toolCallId: "c1", card: cardDescriptor("host-1", { messageId: "m1" }) },
      {
        type: "data-card-withdrawn",
        toolCallId: "c1",
        instanceId: "host-1",
        reason: "The arguments were not valid JSON.",
      },
      {
        type: "tool-output-denied",
        toolCallId: "c1",
        reason: "The arguments were not valid JSON.",
      },
    ];
    for (const chunk of chunks) socket.serverEmit("message:chunk", chunkEvent(chunk));
    const state = useHostStore.getState();
    expect(state.cards["host-1"]).toBeUndefined();
    expect(state.messagesByChat.chat?.byId.m1?.parts).toEqual([
      {
        type: "tool",
        toolCallId: "c1",
        name: "open-notes",
        state: "output-denied",
        input: {},
        errorText: "The arguments were not valid JSON.",
      },
    ]);
  });

  it("gives a card its call's error result, or its cancellation when the call has none", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    for (const [toolCallId, instanceId] of [
      ["c1", "host-1"],
      ["c2", "host-2"],
    ] as const) {
      socket.serverEmit(
        "message:chunk",
        chunkEvent({ type: "tool-input-start", toolCallId, toolName: "open-notes", startedAt: 1 }),
      );
      socket.serverEmit(
        "message:chunk",
        chunkEvent({ type: "data-card", toolCallId, card: cardDescriptor(instanceId) }),
      );
    }
    const failed = { content: [{ type: "text", text: "No such note." }], isError: true };
    socket.serverEmit(
      "message:chunk",
      chunkEvent({
        type: "tool-output-error",
        toolCallId: "c1",
        errorText: "No such note.",
        cardResult: failed,
        durationMs: 5,
      }),
    );
    socket.serverEmit(
      "message:chunk",
      chunkEvent({
        type: "tool-output-error",
        toolCallId: "c2",
        errorText: "Stopped.",
        durationMs: 5,
      }),
    );
    const { cards } = useHostStore.getState();
    expect(cards["host-1"]).toMatchObject({ result: failed, cancelled: null });
    expect(cards["host-2"]).toMatchObject({ result: null, cancelled: "Stopped." });
  });

  it("ignores chunks of a reply of another conversation", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    socket.serverEmit("message:chunk", {
      ...chunkEvent({ type: "text-delta", id: "t", delta: "elsewhere", offset: 0 }),
      conversationId: "conv-2",
    });
    socket.serverEmit("message:chunk", {
      ...chunkEvent({ type: "tool-input-start", toolCallId: "c1", toolName: "x", startedAt: 1 }),
      conversationId: "conv-2",
    });
    expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts).toEqual([]);
  });

  it("mounts a card shown by hand, then records that the server closed it", () => {
    showMessages("conv-1", []);
    socket.serverEmit("card:opened", {
      card: cardDescriptor("host-1", { chatId: null, result: { content: [] } }),
    });
    expect(useHostStore.getState().cards["host-1"]?.result).toEqual({ content: [] });
    socket.serverEmit("card:closed", { instanceId: "host-1", reason: "source gone" });
    expect(useHostStore.getState().cards["host-1"]?.closedByServer).toBe("source gone");
    // The card stays on the page (showing why it closed) until the person removes it.
    expect(useHostStore.getState().cards["host-1"]?.closed).toBeNull();
  });

  it("records a card's input as the model writes it; the first complete one stays", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    const card = cardDescriptor("host-1", { messageId: "m1", arguments: {}, inputStreaming: true });
    const send = (chunk: ReplyChunk) => socket.serverEmit("message:chunk", chunkEvent(chunk));
    send({ type: "tool-input-start", toolCallId: "c1", toolName: "open-notes", startedAt: 1 });
    send({ type: "data-card", toolCallId: "c1", card });
    const entry = () => useHostStore.getState().cards["host-1"];
    expect(entry()).toMatchObject({ arguments: {}, inputFinal: false });
    send({ type: "tool-input-delta", toolCallId: "c1", input: { q: "ca" } });
    expect(entry()).toMatchObject({ arguments: { q: "ca" }, inputFinal: false });
    send({ type: "tool-input-available", toolCallId: "c1", input: { q: "cats" } });
    send({ type: "tool-input-delta", toolCallId: "c1", input: { q: "late" } });
    send({ type: "tool-input-available", toolCallId: "c1", input: { q: "again" } });
    expect(entry()).toMatchObject({ arguments: { q: "cats" }, inputFinal: true });
    // The descriptor stays as the card was opened.
    expect(entry()?.descriptor.arguments).toEqual({});
  });

  it("keeps each chat's tool list once, as last sent", () => {
    const tools = [{ modelName: "search", name: "search", source: "web" }];
    socket.serverEmit("chat:tools", { chatId: "chat", tools });
    socket.serverEmit("chat:tools", { chatId: "other", tools: [] });
    socket.serverEmit("chat:tools", { chatId: "chat", tools });
    expect(useHostStore.getState().chatTools).toEqual({ chat: tools, other: [] });
    // A new conversation's messages do not drop the session's tool lists.
    useHostStore.getState().applyConversationSnapshot(null);
    expect(useHostStore.getState().chatTools.chat).toEqual(tools);
  });

  it("ignores a card of another conversation but keeps panes", () => {
    showMessages("conv-1", []);
    socket.serverEmit("card:opened", {
      card: cardDescriptor("other", { conversationId: "conv-2" }),
    });
    socket.serverEmit("card:opened", {
      card: cardDescriptor("pane-1", { kind: "pane", conversationId: null, chatId: null }),
    });
    expect(Object.keys(useHostStore.getState().cards)).toEqual(["pane-1"]);
    // Opening another conversation keeps the session's panes.
    useHostStore.getState().applyConversationSnapshot(null);
    expect(Object.keys(useHostStore.getState().cards)).toEqual(["pane-1"]);
  });

  it("fills the right chat's empty box, names the app and takes no focus", () => {
    useHostStore.getState().cardOpened(cardDescriptor("h", { title: "Notes", source: "notes" }));
    socket.serverEmit("composer:fill", {
      chatId: "support",
      text: "Compare these",
      instanceId: "h",
    });
    const { composers } = useHostStore.getState();
    expect(composers.support?.text).toBe("Compare these");
    expect(composers.support?.author).toEqual({ instanceId: "h", title: "Notes", source: "notes" });
    expect(composers.support?.focusRequest).toBe(0);
    expect(composers.chat).toBeUndefined();
  });

  it("queues approvals and removes settled ones", () => {
    socket.serverEmit("approval:request", approvalRequest("a1"));
    socket.serverEmit("approval:request", approvalRequest("a2"));
    socket.serverEmit("approval:request", approvalRequest("a1"));
    expect(useHostStore.getState().approvalQueue.map((request) => request.approvalId)).toEqual([
      "a1",
      "a2",
    ]);
    socket.serverEmit("approval:settled", { approvalId: "a1" });
    expect(useHostStore.getState().approvalQueue.map((request) => request.approvalId)).toEqual([
      "a2",
    ]);
  });

  it("records the context built for a chat, the turn state and the list", () => {
    showMessages("conv-1", []);
    socket.serverEmit("context:built", { chatId: "chat", text: "ctx", builtAt: 5, injected: true });
    expect(useHostStore.getState().contextByChat.chat).toEqual({
      chatId: "chat",
      text: "ctx",
      builtAt: 5,
      injected: true,
    });
    socket.serverEmit("turn:state", { chatId: "chat", conversationId: "conv-1", running: true });
    expect(useHostStore.getState().runningChats.chat).toBe(true);
    socket.serverEmit("turn:state", { chatId: "chat", conversationId: "conv-2", running: false });
    expect(useHostStore.getState().runningChats.chat).toBe(true);
    socket.serverEmit("conversations:changed", {
      conversations: [
        conversationSummary("old", { updatedAt: 1 }),
        conversationSummary("new", { updatedAt: 9 }),
      ],
    });
    expect(useHostStore.getState().conversations.map((item) => item.id)).toEqual(["new", "old"]);
    socket.serverEmit("notice", { level: "warning", message: "Source notes is gone." });
    expect(useHostStore.getState().notices.map((notice) => notice.message)).toEqual([
      "Source notes is gone.",
    ]);
  });
});
