// The store contract: every test runs against SQLite and against Postgres.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachStore } from "../../test/store-kinds";
import type { HostStore, NewCard } from "./host-store";
import { isStoreError } from "./store-error";

/** A clock that moves one millisecond per reading, so orderings are deterministic. */
function tickingClock(start = 1_000): () => number {
  let time = start;
  return () => ++time;
}

function cardFor(
  conversationId: string,
  instanceId: string,
  overrides: Partial<NewCard> = {},
): NewCard {
  return {
    instanceId,
    conversationId,
    chatId: "chat-1",
    kind: "card",
    source: "notes",
    tool: "show-notes",
    arguments: { filter: "all" },
    result: { content: [{ type: "text", text: "3 notes" }], structuredContent: { count: 3 } },
    title: "Notes",
    checked: true,
    ...overrides,
  };
}

describeEachStore((kind) => {
  let store: HostStore;

  beforeEach(async () => {
    store = await kind.open(await kind.freshSpec(), { now: tickingClock() });
  });

  afterEach(async () => {
    await store.close();
  });

  it("creates, names and reads users", async () => {
    const created = await store.ensureUser("ada");
    expect(created).toMatchObject({ id: "ada", name: "ada" });
    const renamed = await store.ensureUser("ada", "Ada Lovelace");
    expect(renamed).toEqual({ ...created, name: "Ada Lovelace" });
    expect(await store.ensureUser("ada")).toEqual(renamed);
    expect(await store.getUser("ada")).toEqual(renamed);
    expect(await store.getUser("nobody")).toBeNull();
  });

  it("creates, lists, renames and deletes a user's conversations", async () => {
    const first = await store.createConversation("ada", { title: "  Groceries  " });
    const second = await store.createConversation("ada");
    expect(first).toMatchObject({ userId: "ada", title: "Groceries", imported: false });
    expect(second.title).toBe("New conversation");
    expect(await store.getUser("ada")).toMatchObject({ id: "ada" });

    // Most recently updated first; a rename counts as an update.
    expect((await store.listConversations("ada")).map((item) => item.id)).toEqual([
      second.id,
      first.id,
    ]);
    const renamed = await store.renameConversation("ada", first.id, "Shopping");
    expect(renamed).toMatchObject({ id: first.id, title: "Shopping" });
    expect(renamed!.updatedAt).toBeGreaterThan(first.updatedAt);
    expect((await store.listConversations("ada")).map((item) => item.id)).toEqual([
      first.id,
      second.id,
    ]);

    await expect(store.renameConversation("ada", first.id, "   ")).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
    expect(await store.deleteConversation("ada", first.id)).toBe(true);
    expect(await store.getConversation("ada", first.id)).toBeNull();
    expect(await store.deleteConversation("ada", first.id)).toBe(false);
    expect((await store.listConversations("ada")).map((item) => item.id)).toEqual([second.id]);
  });

  it("never shows or changes one user's conversation for another user", async () => {
    const adas = await store.createConversation("ada", { title: "Private" });
    await store.appendMessage({
      conversationId: adas.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "secret" }],
    });
    await store.createConversation("bob", { title: "Bob's" });

    expect(await store.getConversation("bob", adas.id)).toBeNull();
    expect((await store.listConversations("bob")).map((item) => item.title)).toEqual(["Bob's"]);
    expect(await store.renameConversation("bob", adas.id, "Mine now")).toBeNull();
    expect(await store.deleteConversation("bob", adas.id)).toBe(false);
    expect(await store.exportConversation("bob", adas.id)).toBeNull();

    expect(await store.getConversation("ada", adas.id)).toMatchObject({ title: "Private" });
    expect(await store.listMessages(adas.id)).toHaveLength(1);
  });

  it("numbers messages in order and streams a reply through updates", async () => {
    const conversation = await store.createConversation("ada");
    const question = await store.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "show my notes" }],
    });
    const reply = await store.appendMessage({
      id: "reply-1",
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "assistant",
      parts: [],
      status: "streaming",
    });
    expect([question.seq, reply.seq]).toEqual([1, 2]);
    expect(question.status).toBe("complete");

    await store.updateMessage(conversation.id, "reply-1", {
      parts: [
        {
          type: "tool",
          toolCallId: "call-1",
          name: "show-notes",
          state: "output-available",
          input: { filter: "all" },
          output: { count: 3 },
          instanceId: "host-1",
        },
        { type: "card", instanceId: "host-2" },
        { type: "text", text: "Three notes." },
      ],
    });
    const failed = await store.updateMessage(conversation.id, "reply-1", {
      status: "error",
      error: "The model is unavailable.",
    });
    expect(failed.parts).toHaveLength(3);
    expect(failed.error).toBe("The model is unavailable.");
    const cleared = await store.updateMessage(conversation.id, "reply-1", {
      status: "complete",
      error: null,
    });
    expect(cleared).not.toHaveProperty("error");

    const third = await store.appendMessage({
      conversationId: conversation.id,
      chatId: "support",
      role: "user",
      parts: [{ type: "text", text: "thanks" }],
    });
    expect(third.seq).toBe(3);

    const listed = await store.listMessages(conversation.id);
    expect(listed.map((message) => [message.seq, message.role, message.chatId])).toEqual([
      [1, "user", "chat-1"],
      [2, "assistant", "chat-1"],
      [3, "user", "support"],
    ]);
    expect(listed[1]).toEqual(cleared);
    expect((await store.getConversation("ada", conversation.id))!.updatedAt).toBe(third.createdAt);
  });

  it("reads a conversation's messages a page at a time, latest first, without gap or duplicate", async () => {
    const conversation = await store.createConversation("ada");
    const other = await store.createConversation("ada");
    for (let index = 1; index <= 7; index++) {
      await store.appendMessage({
        conversationId: conversation.id,
        chatId: "chat-1",
        role: index % 2 === 1 ? "user" : "assistant",
        parts: [{ type: "text", text: `message ${index}` }],
      });
    }
    await store.appendMessage({
      conversationId: other.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "elsewhere" }],
    });
    const seqs = (page: { messages: { seq: number }[] }) => page.messages.map((m) => m.seq);

    const latest = await store.listMessagePage(conversation.id, { limit: 3 });
    expect(seqs(latest)).toEqual([5, 6, 7]);
    expect(latest.earlier).toBe(true);
    expect(latest.messages).toEqual((await store.listMessages(conversation.id)).slice(4));
    const middle = await store.listMessagePage(conversation.id, { before: 5, limit: 3 });
    expect(seqs(middle)).toEqual([2, 3, 4]);
    expect(middle.earlier).toBe(true);
    const first = await store.listMessagePage(conversation.id, { before: 2, limit: 3 });
    expect(seqs(first)).toEqual([1]);
    expect(first.earlier).toBe(false);

    // A page that ends exactly at the first message says there is nothing earlier.
    expect(await store.listMessagePage(conversation.id, { before: 4, limit: 3 })).toMatchObject({
      earlier: false,
    });
    expect(await store.listMessagePage(conversation.id, { before: 1, limit: 3 })).toEqual({
      messages: [],
      earlier: false,
    });
    expect(await store.listMessagePage("missing", { limit: 3 })).toEqual({
      messages: [],
      earlier: false,
    });
  });

  it("keeps a reply's usage, retry hint and app origin through updates, and removes them on null", async () => {
    const conversation = await store.createConversation("ada");
    const fromApp = { instanceId: "host-1", source: "notes", title: "Notes" };
    await store.appendMessage({
      id: "question",
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [{ type: "text", text: "from the view" }],
      fromApp,
    });
    await store.appendMessage({
      id: "reply",
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "assistant",
      parts: [],
      status: "streaming",
    });
    const usage = { inputTokens: 12, outputTokens: 3 };
    const failed = await store.updateMessage(conversation.id, "reply", {
      status: "error",
      error: "The model is unavailable.",
      retryable: true,
      usage,
    });
    expect(failed).toMatchObject({ status: "error", retryable: true, usage });
    const usageOnly = await store.updateMessage(conversation.id, "reply", {
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    expect(usageOnly).toMatchObject({ retryable: true, usage, error: "The model is unavailable." });
    const cleared = await store.updateMessage(conversation.id, "reply", {
      parts: [{ type: "text", text: "Hello" }],
      status: "complete",
      error: null,
      retryable: null,
    });
    expect(cleared).toMatchObject({ usage, parts: [{ type: "text", text: "Hello" }] });
    expect(cleared).not.toHaveProperty("retryable");
    expect(cleared).not.toHaveProperty("error");
    const bare = await store.updateMessage(conversation.id, "reply", { usage: null });
    expect(bare).not.toHaveProperty("usage");

    const listed = await store.listMessages(conversation.id);
    expect(listed[0]).toMatchObject({ id: "question", fromApp });
    expect(listed[1]).toEqual(bare);
  });

  it("keeps a finished message when a late progress save (parts, no status) arrives", async () => {
    const conversation = await store.createConversation("ada");
    await store.appendMessage({
      id: "reply",
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "assistant",
      parts: [],
      status: "streaming",
    });
    const progress = await store.updateMessage(conversation.id, "reply", {
      parts: [{ type: "text", text: "You sa" }],
    });
    expect(progress).toMatchObject({
      status: "streaming",
      parts: [{ type: "text", text: "You sa" }],
    });
    const finished = await store.updateMessage(conversation.id, "reply", {
      parts: [{ type: "text", text: "You said: hello" }],
      status: "complete",
    });
    const late = await store.updateMessage(conversation.id, "reply", {
      parts: [{ type: "text", text: "You said: hel" }],
    });
    expect(late).toEqual(finished);
    expect(await store.listMessages(conversation.id)).toEqual([finished]);
    // A change that names a status still applies to a finished message.
    const reopened = await store.updateMessage(conversation.id, "reply", {
      parts: [{ type: "text", text: "Again" }],
      status: "streaming",
    });
    expect(reopened).toMatchObject({
      status: "streaming",
      parts: [{ type: "text", text: "Again" }],
    });
  });

  it("refuses to append to a missing conversation or update a missing message", async () => {
    await expect(
      store.appendMessage({ conversationId: "gone", chatId: "chat-1", role: "user", parts: [] }),
    ).rejects.toSatisfy((error) => isStoreError(error, "not_found"));
    const conversation = await store.createConversation("ada");
    await expect(
      store.updateMessage(conversation.id, "missing", { status: "complete" }),
    ).rejects.toSatisfy((error) => isStoreError(error, "not_found"));
    expect(await store.listMessages(conversation.id)).toEqual([]);
  });

  it("saves, updates, closes and lists cards", async () => {
    const conversation = await store.createConversation("ada");
    const saved = await store.saveCard(
      cardFor(conversation.id, "host-1", { messageId: "reply-1" }),
    );
    await store.saveCard(
      cardFor(conversation.id, "host-pane", {
        kind: "pane",
        chatId: null,
        checked: false,
        result: null,
        cancelled: "Stopped.",
      }),
    );
    expect(await store.getCard(conversation.id, "host-1")).toEqual(saved);

    // Saving again replaces the descriptor but keeps its creation time and its place.
    const updated = await store.saveCard(cardFor(conversation.id, "host-1", { title: "My notes" }));
    expect(updated.createdAt).toBe(saved.createdAt);
    expect(await store.closeCard(conversation.id, "host-1", 5_000)).toBe(true);
    expect(await store.closeCard(conversation.id, "host-1", 6_000)).toBe(true);
    expect(await store.closeCard(conversation.id, "host-unknown")).toBe(false);

    const cards = await store.listCards(conversation.id);
    expect(cards.map((card) => card.instanceId)).toEqual(["host-1", "host-pane"]);
    expect(cards[0]).toMatchObject({
      title: "My notes",
      closedAt: 5_000,
      checked: true,
      arguments: { filter: "all" },
    });
    expect(cards[0]).not.toHaveProperty("messageId");
    expect(cards[1]).toMatchObject({
      kind: "pane",
      chatId: null,
      result: null,
      cancelled: "Stopped.",
      checked: false,
    });
    expect(cards[1]).not.toHaveProperty("closedAt");
    expect(await store.getCard(conversation.id, "host-unknown")).toBeNull();

    await expect(store.saveCard(cardFor("gone", "host-2"))).rejects.toSatisfy((error) =>
      isStoreError(error, "not_found"),
    );
  });

  it("remembers approvals once per key and checks their scope", async () => {
    const conversation = await store.createConversation("ada");
    const forCard = await store.rememberApproval({
      conversationId: conversation.id,
      scope: "card",
      instanceId: "host-1",
      source: "notes",
      tool: "delete-note",
    });
    const again = await store.rememberApproval({
      conversationId: conversation.id,
      scope: "card",
      instanceId: "host-1",
      source: "notes",
      tool: "delete-note",
    });
    expect(again).toEqual(forCard);
    await store.rememberApproval({
      conversationId: conversation.id,
      scope: "conversation",
      instanceId: null,
      source: "notes",
      tool: "delete-note",
    });
    await store.rememberApproval({
      conversationId: conversation.id,
      scope: "conversation",
      instanceId: null,
      source: "notes",
      tool: "delete-note",
    });
    const approvals = await store.listApprovals(conversation.id);
    expect(approvals.map((approval) => [approval.scope, approval.instanceId])).toEqual([
      ["card", "host-1"],
      ["conversation", null],
    ]);

    await expect(
      store.rememberApproval({
        conversationId: conversation.id,
        scope: "card",
        instanceId: null,
        source: "notes",
        tool: "delete-note",
      }),
    ).rejects.toSatisfy((error) => isStoreError(error, "invalid_record"));
    expect(await store.listApprovals(conversation.id)).toHaveLength(2);
  });

  it("deletes a conversation's messages, cards and approvals with it, but keeps the audit", async () => {
    const conversation = await store.createConversation("ada");
    await store.appendMessage({
      conversationId: conversation.id,
      chatId: "chat-1",
      role: "user",
      parts: [],
    });
    await store.saveCard(cardFor(conversation.id, "host-1"));
    await store.rememberApproval({
      conversationId: conversation.id,
      scope: "conversation",
      instanceId: null,
      source: "notes",
      tool: "delete-note",
    });
    await store.appendAudit({
      userId: "ada",
      sessionId: "session-1",
      conversationId: conversation.id,
      instanceId: "host-1",
      source: "notes",
      tool: "delete-note",
      verdict: "allowed",
      durationMs: 2.5,
    });

    expect(await store.deleteConversation("ada", conversation.id)).toBe(true);
    expect(await store.listMessages(conversation.id)).toEqual([]);
    expect(await store.listCards(conversation.id)).toEqual([]);
    expect(await store.listApprovals(conversation.id)).toEqual([]);
    expect(await store.listAudit({ conversationId: conversation.id })).toHaveLength(1);
  });

  it("records the audit of page calls and filters it by conversation and user, newest first", async () => {
    const base = {
      sessionId: "session-1",
      instanceId: "host-1",
      source: "notes",
      tool: "delete-note",
      durationMs: 12.25,
    };
    const first = await store.appendAudit({
      ...base,
      userId: "ada",
      conversationId: "c-1",
      verdict: "allowed",
    });
    await store.appendAudit({
      ...base,
      userId: "ada",
      conversationId: "c-2",
      verdict: "refused",
      reason: "Not Bo.",
    });
    await store.appendAudit({
      ...base,
      userId: "bob",
      conversationId: null,
      verdict: "failed",
      reason: "timeout",
    });

    expect(first).toMatchObject({ verdict: "allowed", durationMs: 12.25 });
    expect(first).not.toHaveProperty("reason");
    expect((await store.listAudit()).map((entry) => entry.verdict)).toEqual([
      "failed",
      "refused",
      "allowed",
    ]);
    expect((await store.listAudit({ userId: "ada" })).map((entry) => entry.conversationId)).toEqual(
      ["c-2", "c-1"],
    );
    expect(await store.listAudit({ conversationId: "c-2" })).toEqual([
      expect.objectContaining({ reason: "Not Bo.", userId: "ada" }),
    ]);
    expect(await store.listAudit({ userId: "bob" })).toEqual([
      expect.objectContaining({ conversationId: null }),
    ]);
    expect(await store.listAudit({ limit: 1 })).toHaveLength(1);
    await expect(store.listAudit({ limit: 0 })).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
  });

  it("rejects every call after close with code closed", async () => {
    await store.close();
    await store.close();
    await expect(store.listConversations("ada")).rejects.toSatisfy((error) =>
      isStoreError(error, "closed"),
    );
    await expect(store.createConversation("ada")).rejects.toSatisfy((error) =>
      isStoreError(error, "closed"),
    );
  });
});
