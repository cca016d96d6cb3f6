// A reply's writes to its stored message land in the order they were made, even on a store that
// finishes writes out of order (as a pool of connections can): the text a person saw complete is
// the text stored, and a progress save never overwrites the end.
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../testing/http-layer-support";
import type { SessionContext } from "../session/session-context";
import type { HostStore, MessageChanges, MessageRecord } from "../store/host-store";
import { openStore } from "../store/open-store";
import { MessageWrites } from "./message-writes";
import { Turn, type TurnDeps } from "./turn";

/** One `updateMessage` the store has been asked for and not yet written. */
interface HeldWrite {
  changes: MessageChanges;
  /** Writes it to the real store; the call then resolves. */
  release(): void;
}

/**
 * A real SQLite store whose `updateMessage` writes only when the test releases it, so the test
 * decides the order writes finish in.
 */
async function reorderingStore(): Promise<{
  store: HostStore;
  held: HeldWrite[];
  /** Resolves at the next `updateMessage` call. */
  nextCall(): Promise<void>;
}> {
  const store = await openStore(":memory:");
  const write = store.updateMessage.bind(store);
  const held: HeldWrite[] = [];
  let called: (() => void) | null = null;
  store.updateMessage = (conversationId, messageId, changes) =>
    new Promise<MessageRecord>((resolve, reject) => {
      held.push({
        changes,
        release: () => void write(conversationId, messageId, changes).then(resolve, reject),
      });
      called?.();
    });
  return {
    store,
    held,
    nextCall: () =>
      new Promise<void>((resolve) => {
        called = resolve;
      }),
  };
}

/**
 * Releases the newest held write, again and again, until `until` has settled and no write is
 * held: each write finishes before every write made before it. Bounded: a queue that never
 * settles fails the test.
 */
async function releaseNewestFirst(
  reordering: Awaited<ReturnType<typeof reorderingStore>>,
  until: Promise<unknown>,
): Promise<void> {
  let settled = false;
  const done = until.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let round = 0; round < 20 && !(settled && reordering.held.length === 0); round += 1) {
    const newest = reordering.held.pop();
    if (newest !== undefined) newest.release();
    else await Promise.race([reordering.nextCall(), done]);
    // Lets the released write reach the store and its caller go on.
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(settled).toBe(true);
  expect(reordering.held).toEqual([]);
}

const text = (value: string): MessageRecord["parts"] => [{ type: "text", text: value }];

let stores: HostStore[] = [];
afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

/** A conversation with one reply being written, in the given store. */
async function streamingReply(store: HostStore): Promise<MessageRecord> {
  stores.push(store);
  const conversation = await store.createConversation("user-1");
  return store.appendMessage({
    conversationId: conversation.id,
    chatId: "chat-1",
    role: "assistant",
    parts: [],
    status: "streaming",
  });
}

describe("a reply's writes to its message", () => {
  it("are overtaken by later ones on this store when they are not queued", async () => {
    // The store of these tests really does reorder writes: without a queue, the stale one wins.
    const reordering = await reorderingStore();
    const reply = await streamingReply(reordering.store);
    const early = reordering.store.updateMessage(reply.conversationId, reply.id, {
      parts: text("You sa"),
    });
    const last = reordering.store.updateMessage(reply.conversationId, reply.id, {
      parts: text("You said: hel"),
    });
    await releaseNewestFirst(reordering, Promise.all([early, last]));
    const [stored] = await reordering.store.listMessages(reply.conversationId);
    expect(stored?.parts).toEqual(text("You sa"));
  });

  it("land in order: the end waits for the progress saves before it", async () => {
    const reordering = await reorderingStore();
    const reply = await streamingReply(reordering.store);
    const writes = new MessageWrites(reordering.store, reply.conversationId, reply.id);
    const failures: unknown[] = [];
    const arrived = reordering.nextCall();
    writes.progress(text("You sa"), (error) => failures.push(error));
    await arrived;
    // Waits for the first save, which is still being written.
    writes.progress(text("You said: hel"), (error) => failures.push(error));
    const end = writes.end({ parts: text("You said: hello"), status: "complete" });
    // Only the first save has reached the store; the end has not overtaken it.
    expect(reordering.held.map((write) => write.changes.parts)).toEqual([text("You sa")]);
    await releaseNewestFirst(reordering, end);
    // A save after the end is not taken.
    writes.progress(text("You"), (error) => failures.push(error));
    expect(reordering.held).toEqual([]);
    expect((await end).parts).toEqual(text("You said: hello"));
    const [stored] = await reordering.store.listMessages(reply.conversationId);
    expect(stored).toMatchObject({ status: "complete", parts: text("You said: hello") });
    expect(failures).toEqual([]);
  });

  it("go on after a failed progress save, and the end is still written", async () => {
    const store = await openStore(":memory:");
    const reply = await streamingReply(store);
    const write = store.updateMessage.bind(store);
    let calls = 0;
    let firstCall: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (firstCall = resolve));
    store.updateMessage = (conversationId, messageId, changes) => {
      calls += 1;
      if (calls === 1) {
        firstCall();
        return Promise.reject(new Error("The disk is busy."));
      }
      return write(conversationId, messageId, changes);
    };
    const writes = new MessageWrites(store, reply.conversationId, reply.id);
    const failures: string[] = [];
    writes.progress(text("You sa"), (error) => failures.push(String(error)));
    await firstArrived;
    const stored = await writes.end({ parts: text("You said: hello"), status: "complete" });
    expect(failures).toEqual(["Error: The disk is busy."]);
    expect(stored).toMatchObject({ status: "complete", parts: text("You said: hello") });
  });

  it("of a turn: the streamed text is what is stored, whatever order the store finishes in", async () => {
    const reordering = await reorderingStore();
    const reply = await streamingReply(reordering.store);
    const { logger } = memoryLogger();
    // Only what a turn's text events and saves read: the store, the clock, the log and the tab.
    const context = {
      services: { store: reordering.store, now: () => Date.now() },
      logger,
      emit: () => undefined,
    } as unknown as SessionContext;
    const deps = { context, tools: {}, cards: {} } as unknown as TurnDeps;
    const turn = new Turn("chat-1", deps);
    turn.conversationId = reply.conversationId;
    turn.reply = reply;
    // The first piece is saved as progress (the first save of a reply is never put off), and
    // that write is still running when the rest of the text comes and the end is saved.
    const arrived = reordering.nextCall();
    turn.apply({ type: "text-delta", delta: "You sa" });
    await arrived;
    turn.apply({ type: "text-delta", delta: "id: hello" });
    turn.saveProgress();
    const end = turn.saveEnd({ parts: turn.storedParts(), status: "complete" });
    await releaseNewestFirst(reordering, end);
    const [stored] = await reordering.store.listMessages(reply.conversationId);
    expect(stored).toMatchObject({ status: "complete", parts: text("You said: hello") });
  });
});
