// Fault: the browser's socket drops in the middle of a reply and comes back (same tab). The tab's
// session lives on through the grace period; `session:hello` gives the conversation with the
// reply as it stands (live text, or finished), and the deltas that follow complete it: nothing
// is shown twice and nothing is lost. A resend of the message whose ack was lost is not stored twice.
import type { ChatMessage, ServerEventName, ServerEvents } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { HostSession } from "../../src/host-session";
import {
  deferred,
  nextChunk,
  receivedOf,
  receivedTextDeltas,
  replyText,
  startHost,
  type TestClient,
  type TestHost,
} from "../harness";
import { scriptedModel } from "./scripted-model";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/** The text parts of the reply, as the browser knows it: the snapshot's, then each delta after it. */
function textFromSnapshotAndDeltas(snapshotReply: ChatMessage, client: TestClient): string {
  return (
    replyText(snapshotReply) +
    receivedTextDeltas(client)
      .filter((delta) => delta.messageId === snapshotReply.id)
      .map((delta) => delta.delta)
      .join("")
  );
}

/**
 * A host whose one reply is written in three pieces, the test opening a gate before the second
 * and the third; every event the session sends is recorded, connected or not.
 */
async function startGatedHost() {
  const second = deferred();
  const third = deferred();
  const emitted: { event: ServerEventName; payload: unknown }[] = [];
  const waiters: {
    match: (event: ServerEventName, payload: unknown) => boolean;
    resolve: () => void;
  }[] = [];
  const model = scriptedModel(() => async (writer) => {
    writer.text("One ");
    await second.promise;
    writer.text("two ");
    await third.promise;
    writer.text("three.");
    writer.finish();
  });
  let tabSession: HostSession | null = null;
  const started = await startHost({
    model,
    // Long enough that the dropped tab's session is still there when it comes back.
    sessionGraceMs: 30_000,
    session(session) {
      // The session function is given the engine's session; its context is where every event
      // to the tab passes.
      const engineSession = session as HostSession;
      tabSession = engineSession;
      // A probe on the session's sends, so the test knows what happened while the tab was away.
      const { context } = engineSession;
      const emit = context.emit;
      context.emit = <E extends ServerEventName>(event: E, payload: ServerEvents[E]) => {
        emitted.push({ event, payload });
        for (const waiter of [...waiters]) {
          if (waiter.match(event, payload)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
        emit(event, payload);
      };
      session.chat();
    },
  });
  return {
    host: started,
    second,
    third,
    emitted,
    session: () => tabSession,
    /** Resolves once the session has sent an event that matches (whether or not a tab heard it). */
    sent(match: (event: ServerEventName, payload: unknown) => boolean): Promise<void> {
      if (emitted.some((entry) => match(entry.event, entry.payload))) return Promise.resolve();
      const waiter = deferred();
      waiters.push({ match, resolve: waiter.resolve });
      return waiter.promise;
    },
  };
}

/** Closes the client's socket and waits until the server has seen it go. */
async function drop(test: TestHost, client: TestClient): Promise<void> {
  const serverSide = test.server.http.io.of("/").sockets.get(client.socket.id ?? "");
  if (!serverSide) throw new Error("The server does not know this socket.");
  const gone = new Promise<void>((resolve) => serverSide.once("disconnect", () => resolve()));
  client.close();
  await gone;
}

const isDelta = (text: string) => (event: ServerEventName, payload: unknown) => {
  if (event !== "message:chunk") return false;
  const { chunk } = payload as ServerEvents["message:chunk"];
  return chunk.type === "text-delta" && chunk.delta === text;
};

describe("the browser's socket dropped and restored in the middle of a reply", () => {
  it("catches up with the live reply, then its rest, with no duplicate and no lost message", async () => {
    const gated = await startGatedHost();
    host = gated.host;
    const before = await host.connect({ tabId: "tab-1" });
    await before.value("session:hello", {});
    const sent = await before.value("message:send", {
      chatId: "chat-1",
      text: "Tell me a story",
      clientId: "message-story",
    });
    await nextChunk(before, "text-delta", (chunk) => chunk.delta === "One ");
    await drop(host, before);

    // The reply goes on while the tab is away.
    gated.second.resolve();
    await gated.sent(isDelta("two "));
    expect(receivedTextDeltas(before).map((delta) => delta.delta)).toEqual([]);

    const after = await host.connect({ tabId: "tab-1" });
    const hello = await after.value("session:hello", {});
    expect(hello.sessionId).toBe(gated.session()?.id);
    const current = hello.current!;
    expect(current.running).toEqual(["chat-1"]);
    expect(current.messages.map((message) => [message.role, message.status])).toEqual([
      ["user", "complete"],
      ["assistant", "streaming"],
    ]);
    expect(current.messages[0]?.id).toBe(sent.messageId);
    const live = current.messages[1]!;
    expect(replyText(live)).toBe("One two ");

    // The browser resends the message whose ack it may have missed: it is not stored again.
    expect(
      await after.value("message:send", {
        chatId: "chat-1",
        text: "Tell me a story",
        clientId: "message-story",
      }),
    ).toEqual({ messageId: sent.messageId, duplicate: true });

    gated.third.resolve();
    const done = await after.next(
      "message:updated",
      (payload) => payload.message.id === live.id && payload.message.status !== "streaming",
    );
    expect(done.message.status).toBe("complete");
    expect(replyText(done.message)).toBe("One two three.");
    // What the tab shows: the snapshot's text, then the deltas after it — exactly the reply.
    expect(textFromSnapshotAndDeltas(live, after)).toBe("One two three.");
    expect(receivedOf(after, "message:created")).toEqual([]);

    const stored = await host.server.store.listMessages(current.conversation.id);
    expect(stored.map((message) => [message.seq, message.role, message.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    expect(replyText(stored[1] as never)).toBe("One two three.");
  });

  it("shows a reply that finished while the tab was away, once", async () => {
    const gated = await startGatedHost();
    host = gated.host;
    const before = await host.connect({ tabId: "tab-1" });
    await before.value("session:hello", {});
    await before.value("message:send", {
      chatId: "chat-1",
      text: "Tell me a story",
      clientId: "message-story",
    });
    await nextChunk(before, "text-delta", (chunk) => chunk.delta === "One ");
    await drop(host, before);

    gated.second.resolve();
    gated.third.resolve();
    await gated.sent(
      (event, payload) =>
        event === "turn:state" && !(payload as ServerEvents["turn:state"]).running,
    );

    const after = await host.connect({ tabId: "tab-1" });
    const current = (await after.value("session:hello", {})).current!;
    expect(current.running).toEqual([]);
    expect(current.messages.map((message) => [message.role, message.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(replyText(current.messages[1]!)).toBe("One two three.");
    // Nothing more arrives for that reply: the snapshot was the whole of it.
    expect(receivedOf(after, "message:chunk")).toEqual([]);
    expect(receivedOf(after, "message:updated")).toEqual([]);
    // The chat is free again: the next message gets its own reply.
    const next = await after.value("message:send", {
      chatId: "chat-1",
      text: "Another",
      clientId: "message-another",
    });
    expect(next.duplicate).toBe(false);
    const reply = await after.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    expect(replyText(reply.message)).toBe("One two three.");
    expect(
      (await host.server.store.listMessages(current.conversation.id)).map((message) => message.seq),
    ).toEqual([1, 2, 3, 4]);
  });
});
