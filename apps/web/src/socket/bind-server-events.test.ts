// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "../state/host-store";
import { toolRowOf } from "../state/tools-slice";

import { resetStores } from "../test-support/reset-stores";

import { showMessages } from "../test-support/store-state";
import { FakeSocket } from "../test-support/fake-socket";
import {
  approvalRequest,
  cardDescriptor,
  chatMessage,
  conversationSummary,
} from "../test-support/records";
import { bindServerEvents } from "./bind-server-events";

let socket: FakeSocket;
let unbind: () => void;

/** A tool call's row as the page shows it: derived from its message and its live activity. */
function rowOf(toolCallId: string, messageId = "m1") {
  const state = useHostStore.getState();
  const message = state.messagesByChat.chat?.byId[messageId];
  return message === undefined
    ? undefined
    : toolRowOf(message, toolCallId, state.toolActivity[toolCallId]);
}

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

  it("follows a tool call from start to finish under its message", () => {
    showMessages("conv-1", []);
    socket.serverEmit("message:created", { message: chatMessage("m1", { status: "streaming" }) });
    socket.serverEmit("tool:started", {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t1",
      name: "slow-sum",
      arguments: { a: 1 },
      startedAt: 1_000,
    });
    expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts).toEqual([
      { type: "tool-call", toolCallId: "t1", name: "slow-sum", arguments: { a: 1 } },
    ]);
    expect(rowOf("t1")?.status).toBe("running");
    socket.serverEmit("tool:progress", { chatId: "chat", toolCallId: "t1", progress: 2, total: 4 });
    expect(rowOf("t1")?.progress).toEqual({ progress: 2, total: 4 });
    socket.serverEmit("tool:finished", {
      chatId: "chat",
      toolCallId: "t1",
      name: "slow-sum",
      isError: false,
      value: { sum: 3 },
      durationMs: 1_500,
    });
    const row = rowOf("t1");
    expect(row?.status).toBe("done");
    expect(row?.value).toEqual({ sum: 3 });
    expect(row?.arguments).toEqual({ a: 1 });
    expect(row?.durationMs).toBe(1_500);
  });

  it("shows a refused call under the chat's last reply even when it never started", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    socket.serverEmit("tool:refused", {
      chatId: "chat",
      toolCallId: "t9",
      name: "delete-all",
      reason: "Not allowed.",
    });
    expect(rowOf("t9")).toMatchObject({
      status: "refused",
      reason: "Not allowed.",
      messageId: "m1",
      name: "delete-all",
    });
    expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts[0]).toMatchObject({
      type: "tool-call",
      toolCallId: "t9",
    });
  });

  it("mounts a card under its message, then records its result", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    socket.serverEmit("card:opened", { card: cardDescriptor("host-1", { messageId: "m1" }) });
    expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts).toEqual([
      { type: "card", instanceId: "host-1" },
    ]);
    socket.serverEmit("card:result", { instanceId: "host-1", result: { content: [] } });
    expect(useHostStore.getState().cards["host-1"]?.result).toEqual({ content: [] });
    socket.serverEmit("card:closed", { instanceId: "host-1", reason: "source gone" });
    expect(useHostStore.getState().cards["host-1"]?.closedByServer).toBe("source gone");
    // The card stays on the page (showing why it closed) until the person removes it.
    expect(useHostStore.getState().cards["host-1"]?.closed).toBeNull();
  });

  it("records a card's arguments as the model writes them; the first final ones stay", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    const card = cardDescriptor("host-1", { messageId: "m1", arguments: {}, inputStreaming: true });
    socket.serverEmit("card:opened", { card });
    const entry = () => useHostStore.getState().cards["host-1"];
    expect(entry()).toMatchObject({ arguments: {}, inputFinal: false });
    socket.serverEmit("card:input-partial", { instanceId: "host-1", arguments: { q: "ca" } });
    expect(entry()).toMatchObject({ arguments: { q: "ca" }, inputFinal: false });
    socket.serverEmit("card:input", { instanceId: "host-1", arguments: { q: "cats" } });
    socket.serverEmit("card:input-partial", { instanceId: "host-1", arguments: { q: "late" } });
    socket.serverEmit("card:input", { instanceId: "host-1", arguments: { q: "again" } });
    expect(entry()).toMatchObject({ arguments: { q: "cats" }, inputFinal: true });
    // The descriptor stays as the card was opened.
    expect(entry()?.descriptor.arguments).toEqual({});
  });

  it("drops a withdrawn card from its reply and the page, keeping the call's row", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    socket.serverEmit("card:opened", { card: cardDescriptor("host-1", { messageId: "m1" }) });
    socket.serverEmit("tool:started", {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t1",
      name: "open-notes",
      arguments: {},
      startedAt: 1_000,
    });
    socket.serverEmit("card:withdrawn", {
      instanceId: "host-1",
      reason: "Tool call rejected. The arguments were not valid JSON.",
    });
    const state = useHostStore.getState();
    expect(state.cards["host-1"]).toBeUndefined();
    expect(state.messagesByChat.chat?.byId.m1?.parts.map((part) => part.type)).toEqual([
      "tool-call",
    ]);
  });

  it("puts a card right after the call that opened it, as the server stores them", () => {
    showMessages("conv-1", [chatMessage("m1", { status: "streaming" })]);
    socket.serverEmit("message:delta", {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      delta: "Opening.",
    });
    // The card opens while the model still writes the arguments, before its call starts.
    socket.serverEmit("card:opened", {
      card: cardDescriptor("host-1", { messageId: "m1", inputStreaming: true }),
    });
    socket.serverEmit("tool:started", {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t1",
      name: "open-notes",
      source: "notes",
      modelName: "notes__open-notes",
      arguments: {},
      startedAt: 1,
    });
    // A second call whose card opens once it runs.
    socket.serverEmit("tool:started", {
      conversationId: "conv-1",
      chatId: "chat",
      messageId: "m1",
      toolCallId: "t2",
      name: "open-notes",
      source: "notes",
      arguments: {},
      startedAt: 2,
    });
    socket.serverEmit("card:opened", { card: cardDescriptor("host-2", { messageId: "m1" }) });
    expect(useHostStore.getState().messagesByChat.chat?.byId.m1?.parts).toEqual([
      { type: "text", text: "Opening." },
      {
        type: "tool-call",
        toolCallId: "t1",
        name: "open-notes",
        source: "notes",
        modelName: "notes__open-notes",
        arguments: {},
      },
      { type: "card", instanceId: "host-1", toolCallId: "t1" },
      { type: "tool-call", toolCallId: "t2", name: "open-notes", source: "notes", arguments: {} },
      { type: "card", instanceId: "host-2", toolCallId: "t2" },
    ]);
    expect(rowOf("t1")).toMatchObject({
      name: "open-notes",
      source: "notes",
      modelName: "notes__open-notes",
    });
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
