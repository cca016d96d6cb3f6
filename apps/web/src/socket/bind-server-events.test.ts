// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useApprovalsStore } from "../state/approvals-store";
import { useCardsStore } from "../state/cards-store";
import { useComposerStore } from "../state/composer-store";
import { useContextStore } from "../state/context-store";
import { useConversationsStore } from "../state/conversations-store";
import { useMessagesStore } from "../state/messages-store";
import { resetStores } from "../state/reset-stores";
import { useSessionStore } from "../state/session-store";
import { useToolsStore } from "../state/tools-store";
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
    expect(useConversationsStore.getState().currentId).toBe("fresh");
    expect(window.location.hash).toBe("#/c/fresh");
  });

  it("follows a tool call from start to finish under its message", () => {
    useMessagesStore.getState().replace("conv-1", [], []);
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
    expect(useMessagesStore.getState().chats.chat?.byId.m1?.parts).toEqual([
      { type: "tool-call", toolCallId: "t1", name: "slow-sum", arguments: { a: 1 } },
    ]);
    expect(useToolsStore.getState().rows.t1?.status).toBe("running");
    socket.serverEmit("tool:progress", { chatId: "chat", toolCallId: "t1", progress: 2, total: 4 });
    expect(useToolsStore.getState().rows.t1?.progress).toEqual({ progress: 2, total: 4 });
    socket.serverEmit("tool:finished", {
      chatId: "chat",
      toolCallId: "t1",
      name: "slow-sum",
      isError: false,
      value: { sum: 3 },
      durationMs: 1_500,
    });
    const row = useToolsStore.getState().rows.t1;
    expect(row?.status).toBe("done");
    expect(row?.value).toEqual({ sum: 3 });
    expect(row?.arguments).toEqual({ a: 1 });
    expect(row?.durationMs).toBe(1_500);
  });

  it("shows a refused call under the chat's last reply even when it never started", () => {
    useMessagesStore.getState().replace("conv-1", [chatMessage("m1", { status: "streaming" })], []);
    socket.serverEmit("tool:refused", {
      chatId: "chat",
      toolCallId: "t9",
      name: "delete-all",
      reason: "Not allowed.",
    });
    expect(useToolsStore.getState().rows.t9).toMatchObject({
      status: "refused",
      reason: "Not allowed.",
      messageId: "m1",
    });
    expect(useMessagesStore.getState().chats.chat?.byId.m1?.parts[0]).toMatchObject({
      type: "tool-call",
      toolCallId: "t9",
    });
  });

  it("mounts a card under its message, then records its result", () => {
    useMessagesStore.getState().replace("conv-1", [chatMessage("m1", { status: "streaming" })], []);
    socket.serverEmit("card:opened", { card: cardDescriptor("host-1", { messageId: "m1" }) });
    expect(useMessagesStore.getState().chats.chat?.byId.m1?.parts).toEqual([
      { type: "card", instanceId: "host-1" },
    ]);
    socket.serverEmit("card:result", { instanceId: "host-1", result: { content: [] } });
    expect(useCardsStore.getState().cards["host-1"]?.result).toEqual({ content: [] });
    socket.serverEmit("card:closed", { instanceId: "host-1", reason: "source gone" });
    expect(useCardsStore.getState().cards["host-1"]?.closedByServer).toBe("source gone");
    // The card stays on the page (showing why it closed) until the person removes it.
    expect(useCardsStore.getState().cards["host-1"]?.closed).toBeNull();
  });

  it("puts a card right after the call that opened it, as the server stores them", () => {
    useMessagesStore.getState().replace("conv-1", [chatMessage("m1", { status: "streaming" })], []);
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
    expect(useMessagesStore.getState().chats.chat?.byId.m1?.parts).toEqual([
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
    expect(useToolsStore.getState().rows.t1).toMatchObject({
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
    expect(useToolsStore.getState().chatTools).toEqual({ chat: tools, other: [] });
    // A new conversation's messages do not drop the session's tool lists.
    useToolsStore.getState().replaceFromMessages([]);
    expect(useToolsStore.getState().chatTools.chat).toEqual(tools);
  });

  it("ignores a card of another conversation but keeps panes", () => {
    useMessagesStore.getState().replace("conv-1", [], []);
    socket.serverEmit("card:opened", {
      card: cardDescriptor("other", { conversationId: "conv-2" }),
    });
    socket.serverEmit("card:opened", {
      card: cardDescriptor("pane-1", { kind: "pane", conversationId: null, chatId: null }),
    });
    expect(Object.keys(useCardsStore.getState().cards)).toEqual(["pane-1"]);
    expect(useSessionStore.getState().panes.map((pane) => pane.instanceId)).toEqual(["pane-1"]);
  });

  it("fills the right chat's empty box, names the app and takes no focus", () => {
    useCardsStore.getState().opened(cardDescriptor("h", { title: "Notes", source: "notes" }));
    socket.serverEmit("composer:fill", {
      chatId: "support",
      text: "Compare these",
      instanceId: "h",
    });
    const composer = useComposerStore.getState();
    expect(composer.texts.support).toBe("Compare these");
    expect(composer.authors.support).toEqual({ instanceId: "h", title: "Notes", source: "notes" });
    expect(composer.focusRequests.support).toBeUndefined();
    expect(composer.texts.chat).toBeUndefined();
  });

  it("queues approvals and removes settled ones", () => {
    socket.serverEmit("approval:request", approvalRequest("a1"));
    socket.serverEmit("approval:request", approvalRequest("a2"));
    socket.serverEmit("approval:request", approvalRequest("a1"));
    expect(useApprovalsStore.getState().queue.map((request) => request.approvalId)).toEqual([
      "a1",
      "a2",
    ]);
    socket.serverEmit("approval:settled", { approvalId: "a1" });
    expect(useApprovalsStore.getState().queue.map((request) => request.approvalId)).toEqual(["a2"]);
  });

  it("records the context built for a chat, the turn state and the list", () => {
    useMessagesStore.getState().replace("conv-1", [], []);
    socket.serverEmit("context:built", { chatId: "chat", text: "ctx", builtAt: 5, injected: true });
    expect(useContextStore.getState().byChat.chat).toEqual({
      chatId: "chat",
      text: "ctx",
      builtAt: 5,
      injected: true,
    });
    socket.serverEmit("turn:state", { chatId: "chat", conversationId: "conv-1", running: true });
    expect(useMessagesStore.getState().running.chat).toBe(true);
    socket.serverEmit("turn:state", { chatId: "chat", conversationId: "conv-2", running: false });
    expect(useMessagesStore.getState().running.chat).toBe(true);
    socket.serverEmit("conversations:changed", {
      conversations: [
        conversationSummary("old", { updatedAt: 1 }),
        conversationSummary("new", { updatedAt: 9 }),
      ],
    });
    expect(useConversationsStore.getState().conversations.map((item) => item.id)).toEqual([
      "new",
      "old",
    ]);
    socket.serverEmit("notice", { level: "warning", message: "Source notes is gone." });
    expect(useSessionStore.getState().notices.map((notice) => notice.message)).toEqual([
      "Source notes is gone.",
    ]);
  });
});
