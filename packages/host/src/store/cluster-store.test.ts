// What several nodes share through the store (leases, the replies of nodes that are gone,
// one-time sign-in tokens, OpenID Connect sign-ins in progress), on SQLite and on Postgres, with one store or two on the same data.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachStore } from "../../test/store-kinds";
import type { HostStore, MessageRecord, NewMessage } from "./host-store";
import { isStoreError } from "./store-error";

describeEachStore((kind) => {
  let time = 0;
  let spec = "";
  let store: HostStore;
  let conversationId = "";
  const opened: HostStore[] = [];

  /** Opens another store on the same data, as a second node would. */
  async function secondNode(): Promise<HostStore> {
    const other = await kind.open(spec, { now: () => time });
    opened.push(other);
    return other;
  }

  async function reply(
    id: string,
    overrides: Partial<NewMessage> = {},
    on: HostStore = store,
  ): Promise<MessageRecord> {
    return on.appendMessage({
      id,
      conversationId,
      chatId: "chat-1",
      role: "assistant",
      parts: [{ type: "text", text: `reply ${id}` }],
      status: "streaming",
      ...overrides,
    });
  }

  async function statuses(): Promise<Record<string, string>> {
    const messages = await store.listMessages(conversationId);
    return Object.fromEntries(messages.map((message) => [message.id, message.status]));
  }

  const ids = (messages: MessageRecord[]) => messages.map((message) => message.id).sort();

  beforeEach(async () => {
    time = 1_000_000;
    spec = await kind.freshSpec();
    store = await kind.open(spec, { now: () => time });
    opened.push(store);
    conversationId = (await store.createConversation("ada")).id;
  });

  afterEach(async () => {
    for (const each of opened.splice(0)) await each.close();
  });

  it("interrupts the streaming replies of nodes whose lease expired or never was, and only those", async () => {
    await store.renewLease("node-a", 10_000);
    await store.renewLease("node-b", 1_000);
    await reply("of-a", { nodeId: "node-a" });
    await reply("of-b", { nodeId: "node-b" });
    await reply("of-nobody");
    await reply("of-unknown", { nodeId: "node-c" });
    await reply("done-of-b", { nodeId: "node-b", status: "complete" });

    time += 2_000;
    const changed = await store.interruptOrphanedReplies();
    expect(ids(changed)).toEqual(["of-b", "of-nobody", "of-unknown"]);
    expect(changed.every((message) => message.status === "interrupted")).toBe(true);
    expect(changed.every((message) => message.updatedAt === time)).toBe(true);
    expect(changed[0]).toMatchObject({ conversationId, chatId: "chat-1" });
    expect(await statuses()).toEqual({
      "of-a": "streaming",
      "of-b": "interrupted",
      "of-nobody": "interrupted",
      "of-unknown": "interrupted",
      "done-of-b": "complete",
    });
    expect(await store.interruptOrphanedReplies()).toEqual([]);

    // A renewed lease keeps the node's replies; a released one gives them up.
    time += 9_000;
    await store.renewLease("node-a", 10_000);
    time += 5_000;
    expect(await store.interruptOrphanedReplies()).toEqual([]);
    await store.releaseLease("node-a");
    expect(ids(await store.interruptOrphanedReplies())).toEqual(["of-a"]);
  });

  it("interrupts one node's replies for its drain, leaving other nodes' and finished ones", async () => {
    await store.renewLease("node-a", 60_000);
    await store.renewLease("node-b", 60_000);
    await reply("first-of-a", { nodeId: "node-a" });
    await reply("second-of-a", { nodeId: "node-a" });
    await reply("of-b", { nodeId: "node-b" });
    await reply("stopped-of-a", { nodeId: "node-a", status: "stopped" });

    expect(ids(await store.interruptRepliesOf("node-a"))).toEqual(["first-of-a", "second-of-a"]);
    expect(await statuses()).toEqual({
      "first-of-a": "interrupted",
      "second-of-a": "interrupted",
      "of-b": "streaming",
      "stopped-of-a": "stopped",
    });
    expect(await store.interruptRepliesOf("node-a")).toEqual([]);
  });

  it("counts in markInterruptedReplies what a single server without leases had streaming", async () => {
    await reply("cut-1");
    await reply("cut-2", { nodeId: "node-gone" });
    await store.renewLease("node-alive", 60_000);
    await reply("alive", { nodeId: "node-alive" });
    expect(await store.markInterruptedReplies()).toBe(2);
    expect(await store.markInterruptedReplies()).toBe(0);
    expect((await statuses())["alive"]).toBe("streaming");
  });

  it("keeps the node id out of the message read back", async () => {
    const appended = await reply("of-a", { nodeId: "node-a" });
    expect(appended).not.toHaveProperty("nodeId");
    const [listed] = await store.listMessages(conversationId);
    expect(listed).not.toHaveProperty("nodeId");
    const updated = await store.updateMessage(conversationId, "of-a", { status: "complete" });
    expect(updated).not.toHaveProperty("nodeId");
    expect(await store.interruptOrphanedReplies()).toEqual([]);
  });

  it("sees another node's lease and interrupts its replies once it is gone", async () => {
    const other = await secondNode();
    await other.renewLease("node-b", 5_000);
    await reply("of-b", { nodeId: "node-b" }, other);
    expect(await store.interruptOrphanedReplies()).toEqual([]);
    time += 5_000;
    const changed = await store.interruptOrphanedReplies();
    expect(ids(changed)).toEqual(["of-b"]);
    expect((await other.listMessages(conversationId))[0]?.status).toBe("interrupted");
  });

  it("refuses a lease without a node id or a positive time to live", async () => {
    await expect(store.renewLease("", 1_000)).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
    await expect(store.renewLease("node-a", 0)).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
    await expect(store.renewLease("node-a", Number.NaN)).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
  });

  it("spends a sign-in token once, says already-used until it expires, then unknown", async () => {
    await store.saveSignInToken("digest-1", time + 60_000);
    expect(await store.spendSignInToken("digest-never-saved", time)).toBe("unknown");
    expect(await store.spendSignInToken("digest-1", time + 1)).toBe("accepted");
    expect(await store.spendSignInToken("digest-1", time + 2)).toBe("already-used");
    expect(await store.spendSignInToken("digest-1", time + 59_999)).toBe("already-used");
    expect(await store.spendSignInToken("digest-1", time + 60_000)).toBe("unknown");
    // Once expired it is gone, even when asked about with an earlier time.
    expect(await store.spendSignInToken("digest-1", time + 3)).toBe("unknown");
  });

  it("never accepts an expired token, and keeps the first expiry of a digest saved twice", async () => {
    await store.saveSignInToken("digest-short", time + 1_000);
    expect(await store.spendSignInToken("digest-short", time + 1_000)).toBe("unknown");

    await store.saveSignInToken("digest-twice", time + 1_000);
    await store.saveSignInToken("digest-twice", time + 1_000_000);
    expect(await store.spendSignInToken("digest-twice", time + 2_000)).toBe("unknown");

    await expect(store.saveSignInToken("", time + 1_000)).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
  });

  it("accepts a token exactly once when two nodes spend it at the same moment", async () => {
    const other = await secondNode();
    await store.saveSignInToken("digest-shared", time + 60_000);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_unused, index) =>
        (index % 2 === 0 ? store : other).spendSignInToken("digest-shared", time + 1),
      ),
    );
    expect(attempts.filter((outcome) => outcome === "accepted")).toHaveLength(1);
    expect(attempts.filter((outcome) => outcome === "already-used")).toHaveLength(9);
    expect(await other.spendSignInToken("digest-shared", time + 2)).toBe("already-used");
  });

  it("takes a sign-in state once with its data, says already-used until it expires, then unknown", async () => {
    await store.saveSignInState("state-1", '{"nonce":"n"}', time + 60_000);
    expect(await store.takeSignInState("state-never-saved", time)).toEqual({ outcome: "unknown" });
    expect(await store.takeSignInState("state-1", time + 1)).toEqual({
      outcome: "accepted",
      data: '{"nonce":"n"}',
    });
    expect(await store.takeSignInState("state-1", time + 2)).toEqual({ outcome: "already-used" });
    expect(await store.takeSignInState("state-1", time + 60_000)).toEqual({ outcome: "unknown" });
    await store.saveSignInState("state-short", "{}", time + 1_000);
    expect(await store.takeSignInState("state-short", time + 1_000)).toEqual({
      outcome: "unknown",
    });
    await expect(store.saveSignInState("", "{}", time + 1_000)).rejects.toSatisfy((error) =>
      isStoreError(error, "invalid_record"),
    );
  });

  it("lets another node take a state this one saved, exactly once when both try at once", async () => {
    const other = await secondNode();
    await store.saveSignInState("state-shared", '{"from":"a"}', time + 60_000);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_unused, index) =>
        (index % 2 === 0 ? other : store).takeSignInState("state-shared", time + 1),
      ),
    );
    expect(attempts.filter((found) => found.outcome === "accepted")).toEqual([
      { outcome: "accepted", data: '{"from":"a"}' },
    ]);
    expect(attempts.filter((found) => found.outcome === "already-used")).toHaveLength(9);
  });
});
