// A person's messages through a real socket: committed before the acknowledgement, never stored
// twice for one client id, one reply at a time per chat, and a stop that cancels the running tool
// and tells its card.
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { McpApp } from "../src/sources/mcp-app";
import type { HostStore } from "../src/store/host-store";
import { openStore } from "../src/store/open-store";
import { StoreError } from "../src/store/store-error";
import { deferred, exchange, greeterApp, nextChunk, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/**
 * A real SQLite store that writes down when each person's message was committed, and fails the
 * write of a message whose text is "fail-me" (fault injection).
 */
async function recordingStore(log: string[]): Promise<HostStore> {
  const store = await openStore(":memory:");
  const appendMessage = store.appendMessage.bind(store);
  store.appendMessage = async (message) => {
    const text = message.parts[0]?.type === "text" ? message.parts[0].text : "";
    if (text === "fail-me") {
      throw new StoreError("storage_full", "The disk is full; free some space and send again.", {
        retryable: true,
      });
    }
    const record = await appendMessage(message);
    if (message.role === "user") log.push(`committed ${text}`);
    return record;
  };
  return store;
}

/** An app whose `wait` tool (with a view) runs until its call is cancelled. */
function waitingApp() {
  const started = deferred();
  const cancelled = deferred<string>();
  const app = new McpApp({
    name: "waiter",
    html: "<!doctype html><p>Waiting</p>",
    tools: [
      {
        name: "wait",
        description: "Waits until cancelled.",
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (_args, extra) =>
          new Promise((resolve) => {
            started.resolve();
            extra.signal.addEventListener("abort", () => {
              cancelled.resolve(String(extra.signal.reason));
              resolve({ content: [{ type: "text", text: "cancelled" }] });
            });
          }),
      },
    ],
  });
  return { app, started: started.promise, cancelled: cancelled.promise };
}

describe("a person's message", () => {
  it("is acknowledged only after it is committed, and not at all when the write fails", async () => {
    const log: string[] = [];
    const store = await recordingStore(log);
    host = await startHost({
      store,
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const ack = client.value("message:send", { chatId: "chat-1", text: "Hello", clientId: "c1" });
    const sent = await ack.then((value) => {
      log.push("acknowledged Hello");
      return value;
    });
    expect(log.slice(0, 2)).toEqual(["committed Hello", "acknowledged Hello"]);
    const reply = await client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant",
    );
    const stored = await store.listMessages(reply.message.conversationId);
    expect(stored.map((message) => message.id)).toContain(sent.messageId);

    client.received.splice(0);
    const failed = await client.request("message:send", {
      chatId: "chat-1",
      text: "fail-me",
      clientId: "c2",
    });
    expect(failed).toEqual({
      ok: false,
      error: {
        code: "storage",
        message: "The disk is full; free some space and send again.",
        retryable: true,
      },
    });
    expect(client.received.filter((entry) => entry.event === "message:created")).toEqual([]);
    expect((await store.listMessages(reply.message.conversationId)).length).toBe(stored.length);
    // The chat is not left busy by the failed write.
    const next = await exchange(client, "chat-1", "Still there?");
    expect(next.reply.status).toBe("complete");
  });

  it("is stored once for one client id, even when sent again", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await exchange(client, "chat-1", "Hello", "same-id");
    const again = await client.value("message:send", {
      chatId: "chat-1",
      text: "Hello",
      clientId: "same-id",
    });
    expect(again).toEqual({ messageId: first.messageId, duplicate: true });
    const stored = await host.server.store.listMessages(first.reply.conversationId);
    expect(stored.filter((message) => message.role === "user")).toHaveLength(1);
    expect(stored).toHaveLength(2);
  });

  it("is refused as busy while the chat replies; a stop cancels the tool and its card", async () => {
    const waiting = waitingApp();
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), waiting.app);
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const sent = await client.value("message:send", {
      chatId: "chat-1",
      text: "/call wait",
      clientId: "w1",
    });
    const opened = await nextChunk(client, "data-card");
    await waiting.started;

    const busy = await client.request("message:send", {
      chatId: "chat-1",
      text: "Are you there?",
      clientId: "w2",
    });
    expect(busy).toEqual({
      ok: false,
      error: {
        code: "busy",
        message: "A reply is still being written in this chat; wait for it or stop it.",
        retryable: true,
      },
    });
    // A resend of the running message is a duplicate, not busy.
    expect(
      await client.value("message:send", { chatId: "chat-1", text: "/call wait", clientId: "w1" }),
    ).toEqual({ messageId: sent.messageId, duplicate: true });

    expect(await client.value("turn:stop", { chatId: "chat-1" })).toEqual({ stopped: true });
    const cancelled = await nextChunk(client, "tool-output-error");
    expect(cancelled).toMatchObject({
      toolCallId: opened.toolCallId,
      errorText: "The person stopped the reply.",
    });
    expect(cancelled.cardResult).toBeUndefined();
    await waiting.cancelled;
    const stopped = await client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant",
    );
    expect(stopped.message.status).toBe("stopped");
    expect(await client.next("turn:state", (payload) => !payload.running)).toMatchObject({
      chatId: "chat-1",
      running: false,
    });

    // The card is saved without a result; its page gets the reason on attach.
    const saved = await host.server.store.getCard(
      opened.card.conversationId!,
      opened.card.instanceId,
    );
    expect(saved).toMatchObject({ result: null, cancelled: "The person stopped the reply." });
    const attach = await client.value("card:attach", { instanceId: opened.card.instanceId });
    expect(attach).toMatchObject({ toolResult: null, cancelled: "The person stopped the reply." });

    // Nothing runs any more, and the chat takes the next message.
    expect(await client.value("turn:stop", { chatId: "chat-1" })).toEqual({ stopped: false });
    const next = await exchange(client, "chat-1", "Hello again");
    expect(next.reply.status).toBe("complete");
    expect(
      await client.request("message:send", {
        chatId: "no-such-chat",
        text: "Hi",
        clientId: "w9",
      }),
    ).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
